import Foundation

/// Options of `agentd-bench record`, with defaults that suit this repository's lab.
struct RecordOptions: Sendable {
    var participants: [Int] = [1, 2, 4]
    var seconds: Double = 20
    var warmup: Double = 3
    var baseline = true
    var agentd = ".build/release/agentd"
    var python = ".venv/bin/python"
    var peers = "peers"
    var server = RecordOptions.labValue("JANUS_WS") ?? "ws://10.77.0.2:8188/"
    var iceAllow = RecordOptions.labValue("LAB_IFACE") ?? "agentd-lab0"
    var videoSize = "320x240"
    var fps = 15
    var workDirectory: String?
    var keep = false

    static let usage = """
        usage: agentd-bench record [--participants 1,2,4] [--seconds 20] [--warmup 3] [--no-baseline]
                                   [--agentd PATH] [--python PATH] [--peers DIR] [--server WS] [--ice-allow LIST]
                                   [--video WxH] [--fps N] [--work DIR] [--keep]

          Records N aiortc lab publishers with `agentd record` and, in the same run, with one aiortc
          subscriber per publisher (peers/subscriber.py: decode, WAV + VP8 WebM, like MediaRecorder),
          and prints CPU % of one core and RSS per participant for both, with their ratio.
          A 0-participant run of agentd first gives its baseline RSS (skip with --no-baseline).
        """

    init(arguments: [String]) throws(BenchError) {
        var rest = arguments[...]
        func value(_ name: String) throws(BenchError) -> String {
            guard let next = rest.popFirst() else { throw BenchError("\(name) needs a value") }
            return next
        }
        func number(_ name: String) throws(BenchError) -> Double {
            let text = try value(name)
            guard let parsed = Double(text), parsed.isFinite, parsed >= 0 else {
                throw BenchError("\(name) must be a non-negative number, got '\(text)'")
            }
            return parsed
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--participants":
                let text = try value(argument)
                let counts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
                guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 16 }) else {
                    throw BenchError("--participants must be a comma-separated list of counts 1-16, got '\(text)'")
                }
                participants = counts.compactMap { $0 }
            case "--seconds":
                seconds = try number(argument)
                guard seconds >= 2 else { throw BenchError("--seconds must be at least 2") }
            case "--warmup": warmup = try number(argument)
            case "--no-baseline": baseline = false
            case "--agentd": agentd = try value(argument)
            case "--python": python = try value(argument)
            case "--peers": peers = try value(argument)
            case "--server": server = try value(argument)
            case "--ice-allow": iceAllow = try value(argument)
            case "--video":
                videoSize = try value(argument)
                let parts = videoSize.lowercased().split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, parts.allSatisfy({ $0 >= 16 && $0 % 2 == 0 }) else {
                    throw BenchError("--video must be WxH with even sides of at least 16, got '\(videoSize)'")
                }
            case "--fps":
                let text = try value(argument)
                guard let parsed = Int(text), parsed >= 1, parsed <= 60 else {
                    throw BenchError("--fps must be 1-60, got '\(text)'")
                }
                fps = parsed
            case "--work": workDirectory = try value(argument)
            case "--keep": keep = true
            case "-h", "--help":
                Console.line(Self.usage)
                exit(0)
            default: throw BenchError("unknown option '\(argument)' (see agentd-bench record --help)")
            }
        }
        for (path, option) in [(agentd, "--agentd"), (python, "--python")]
        where !FileManager.default.isExecutableFile(atPath: path) {
            throw BenchError("\(option) \(path) is not an executable file")
        }
        for script in ["publisher.py", "subscriber.py"]
        where !FileManager.default.fileExists(atPath: "\(peers)/\(script)") {
            throw BenchError("--peers \(peers) has no \(script)")
        }
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
