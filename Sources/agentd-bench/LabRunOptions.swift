import Foundation

/// The options every lab benchmark shares: which programs to run, where the lab's Janus is, and
/// how long to measure.
struct LabRunOptions: Sendable {
    var seconds: Double
    var warmup: Double
    var agentd = ".build/release/agentd"
    var python = ".venv/bin/python"
    var peers = "peers"
    var server = LabRunOptions.labValue("JANUS_WS") ?? "ws://10.77.0.2:8188/"
    var iceAllow = LabRunOptions.labValue("LAB_IFACE") ?? "agentd-lab0"
    var workDirectory: String?
    var keep = false

    static let usage = """
        [--agentd PATH] [--python PATH] [--peers DIR] [--server WS] [--ice-allow LIST] [--work DIR] [--keep]
        """

    /// Takes `argument` (and its value from `cursor`) when it is one of the shared options;
    /// false when it is not.
    mutating func accept(_ argument: String, from cursor: inout ArgumentCursor) throws(BenchError) -> Bool {
        switch argument {
        case "--seconds":
            seconds = try cursor.number(argument)
            guard seconds >= 2 else { throw BenchError("--seconds must be at least 2") }
        case "--warmup": warmup = try cursor.number(argument)
        case "--agentd": agentd = try cursor.value(argument)
        case "--python": python = try cursor.value(argument)
        case "--peers": peers = try cursor.value(argument)
        case "--server": server = try cursor.value(argument)
        case "--ice-allow": iceAllow = try cursor.value(argument)
        case "--work": workDirectory = try cursor.value(argument)
        case "--keep": keep = true
        default: return false
        }
        return true
    }

    /// Fails unless the programs are executable and `peers` holds `scripts`.
    func validate(scripts: [String]) throws(BenchError) {
        for (path, option) in [(agentd, "--agentd"), (python, "--python")]
        where !FileManager.default.isExecutableFile(atPath: path) {
            throw BenchError("\(option) \(path) is not an executable file")
        }
        for script in scripts where !FileManager.default.fileExists(atPath: "\(peers)/\(script)") {
            throw BenchError("--peers \(peers) has no \(script)")
        }
    }

    /// The lab line every benchmark prints first: server, ICE, token auth and injected loss.
    var labLine: String {
        let loss = Self.labValue("LAB_LOSS") ?? "0"
        return "lab: \(server), ICE on \(iceAllow), token auth \(Self.labValue("LAB_TOKEN_SECRET") == nil ? "off" : "on"), lab packet loss \(loss) %"
            + (loss == "0" ? "" : " (set by scripts/lab --loss; NACK/PLI traffic is part of the figures)")
    }

    /// The work directory (given, or a fresh one under the temp dir), created.
    func makeWorkDirectory() throws(BenchError) -> String {
        let path = workDirectory ?? "\(NSTemporaryDirectory())agentd-bench-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create work directory \(path): \(error.localizedDescription)")
        }
        return path
    }

    /// A value from the shared lab's env file (written by scripts/lab up), if any.
    static func labValue(_ key: String) -> String? {
        guard let text = try? String(contentsOfFile: "/run/agentd-lab/lab.env", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + "=") {
            let value = String(line.dropFirst(key.count + 1))
            return value.isEmpty ? nil : value
        }
        return nil
    }
}
