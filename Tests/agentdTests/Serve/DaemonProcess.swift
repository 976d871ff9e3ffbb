import Foundation
import TestSupport

/// `agentd serve` as a child process with a scratch config (port 0, its own output root, ICE on
/// the lab interface), and a client for its API.
final class DaemonProcess: Sendable {
    static let token = "serve-lab-token-5d81e2f0"

    let process: ChildProcess
    let client: APIClient
    let outputRoot: String
    private let scratch: String

    private init(process: ChildProcess, client: APIClient, outputRoot: String, scratch: String) {
        self.process = process
        self.client = client
        self.outputRoot = outputRoot
        self.scratch = scratch
    }

    /// - Parameter outputRoot: where recordings go (default: a directory in the daemon's scratch).
    static func start(lab: LabEnvironment, maxJobs: Int = 2, outputRoot: String? = nil) async throws -> DaemonProcess {
        try await start(server: lab.janusWS, iceAllow: lab.values["LAB_IFACE"] ?? "agentd-lab0", maxJobs: maxJobs, outputRoot: outputRoot)
    }

    /// A daemon for tests of its API alone: no Janus, ICE on loopback.
    static func startWithoutLab(maxJobs: Int = 2) async throws -> DaemonProcess {
        try await start(server: nil, maxJobs: maxJobs)
    }

    /// Without the lab: `server` is whatever the test points jobs at (jobs that fail before they
    /// connect need none that answers; nil: no default server); `extra` adds config keys
    /// (`"media_root": "..."`).
    static func start(server: String?, iceAllow: String = "lo", maxJobs: Int = 2, outputRoot: String? = nil,
                      extra: [String: String] = [:]) async throws -> DaemonProcess {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let outputRoot = outputRoot ?? scratch + "/recordings"
        var keys: [String: String] = extra
        if let server { keys["server"] = server }
        let extraKeys = keys.sorted { $0.key < $1.key }.map { ", \"\($0.key)\": \"\($0.value)\"" }.joined()
        let config = """
            {"output_root": "\(outputRoot)", "max_jobs": \(maxJobs), "ice_allow": ["\(iceAllow)"], "api_token": "\(token)"\(extraKeys)}
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: scratch + "/config.json"))
        let process = try ChildProcess(
            AgentdBinary.path, ["serve", "--config", scratch + "/config.json", "--listen", "127.0.0.1:0"], name: "agentd serve",
            environment: ["AGENTD_API_TOKEN": ""])
        try await pollUntil(timeout: .seconds(10), "agentd serve to listen") {
            process.stderr.contains("listening on http://") || !process.isRunning
        }
        let stderr = process.stderr
        guard let range = stderr.range(of: #"listening on http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
            throw ChildProcess.Failure(description: "agentd serve did not start: \(stderr)")
        }
        let base = String(stderr[range].dropFirst("listening on ".count))
        return DaemonProcess(process: process, client: APIClient(base: base, token: token), outputRoot: outputRoot, scratch: scratch)
    }

    /// The daemon's process id, found by its config path (unique to this daemon) in /proc.
    var pid: Int32? {
        let configPath = scratch + "/config.json"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).first { pid in
            guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return cmdline.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == configPath }
        }
    }

    /// The daemon's threads by name (none once it has ended).
    var threads: ThreadNames {
        pid.map { ThreadNames.of(pid: $0) } ?? ThreadNames(names: [])
    }

    /// Starts `count` recordings of `room` (each its own job and engine, into `<room>-<from>`,
    /// `<room>-<from + 1>`, …) and returns their job ids; every answer must be a 201.
    func startRecordings(_ count: Int, room: String, from first: Int = 0) async throws -> [String] {
        var ids: [String] = []
        for index in first..<(first + count) {
            let created = try await client.post("/v1/recordings", #"{"room": "\#(room)", "out": "\#(room)-\#(index)"}"#)
            guard created.status == 201, let id = created.json?["id"]?.stringValue else {
                throw APIClientFailure(description: "recording \(index) was not created: \(created.status) \(created.text)")
            }
            ids.append(id)
        }
        return ids
    }

    /// Stops the daemon (SIGTERM) if it still runs and removes its scratch directory once it
    /// has ended (it may still write there as it stops). For `defer`: returns at once.
    func finish() {
        let scratch = scratch
        process.terminate(then: { try? FileManager.default.removeItem(atPath: scratch) })
    }
}
