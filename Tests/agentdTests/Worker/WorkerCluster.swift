import Agent
import Foundation
import Synchronization
import TestSupport

/// A distributed deployment in miniature: a redis-server of the test's own, one `agentd serve
/// --redis` API node and `agentd worker`s, sharing one config (the lab's Janus, its ICE
/// interface, one output root: the shared filesystem a deployment needs). Stopped on every
/// path by ``finish()``.
final class WorkerCluster: Sendable {
    let redis: RedisServer
    let api: DaemonProcess
    let scratch: String
    let outputRoot: String
    let configPath: String
    private let workers = Mutex<[String: WorkerProcess]>([:])

    init(lab: LabEnvironment) async throws {
        redis = try await RedisServer()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-cluster-\(UUID().uuidString)").path
        outputRoot = scratch + "/recordings"
        configPath = scratch + "/worker.json"
        try FileManager.default.createDirectory(atPath: outputRoot, withIntermediateDirectories: true)
        let iface = lab.values["LAB_IFACE"] ?? "agentd-lab0"
        let config = """
            {"output_root": "\(outputRoot)", "server": "\(lab.janusWS)", "ice_allow": ["\(iface)"], "redis": "\(redis.url)"}
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: configPath))
        do {
            api = try await DaemonProcess.start(server: lab.janusWS, iceAllow: iface, outputRoot: outputRoot, extra: ["redis": redis.url])
        } catch {
            redis.stop()
            throw error
        }
    }

    /// Starts a worker and waits until it listens.
    @discardableResult
    func worker(_ name: String, capacity: Double = 1, costs: String = "recording=1,participant=0,bot=1",
                lease: Int = 6, heartbeat: Int = 2, maxAttempts: Int = 3) async throws -> WorkerProcess {
        let worker = try await WorkerProcess.start(
            name: name, config: configPath,
            arguments: ["--capacity", String(capacity), "--costs", costs, "--lease", String(lease), "--heartbeat", String(heartbeat),
                        "--max-attempts", String(maxAttempts)])
        workers.withLock { $0[name] = worker }
        return worker
    }

    var client: APIClient { api.client }

    /// Stops every process and the Redis server; the scratch directory goes once they ended.
    func finish() {
        let all = workers.withLock { $0.values }
        for worker in all { worker.process.terminate() }
        api.finish()
        redis.stop()
        let scratch = scratch
        Thread {
            for worker in all { while worker.process.isRunning { usleep(20_000) } }
            try? FileManager.default.removeItem(atPath: scratch)
        }.start()
    }
}

/// One `agentd worker` process and the base URL of its /healthz and /metrics.
struct WorkerProcess: Sendable {
    let name: String
    let process: ChildProcess
    let base: String

    static func start(name: String, config: String, arguments: [String]) async throws -> WorkerProcess {
        let process = try ChildProcess(
            AgentdBinary.path, ["worker", "--config", config, "--name", name, "--listen", "127.0.0.1:0"] + arguments, name: "worker \(name)")
        try await pollUntil(timeout: .seconds(10), "worker \(name) to listen") {
            process.stderr.contains("listening on http://") || !process.isRunning
        }
        let stderr = process.stderr
        guard let range = stderr.range(of: #"listening on http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
            throw ChildProcess.Failure(description: "worker \(name) did not start: \(stderr)")
        }
        return WorkerProcess(name: name, process: process, base: String(stderr[range].dropFirst("listening on ".count)))
    }

    /// Its /metrics, parsed.
    func metrics() async throws -> PrometheusText {
        try PrometheusText(parsing: try await APIClient(base: base, token: nil).get("/metrics").text)
    }
}
