import Agent
import AgentdCore
import Foundation
import Synchronization

@testable import agentd

/// A daemon in the test process on 127.0.0.1 (any free port), with a bot factory of the test's
/// own; its log lines are kept.
final class InProcessDaemon: Sendable {
    static let token = "test-api-token-7f3a9c"

    let daemon: Daemon
    let client: APIClient
    let port: UInt16
    let outputRoot: String
    /// The daemon's transport loops, the test's own (stopped with the daemon).
    let loops = LoopGroup(name: "test.serve.io")
    private let lines = LogLines()

    init(maxJobs: Int = 4, limits: HTTPLimits = .standard, botFactory: @escaping BotJobFactory = ParkedBot.factory) throws {
        outputRoot = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-serve-\(UUID().uuidString)").path
        let lines = self.lines
        let loops = self.loops
        let log = ServeLog(format: .json) { line in lines.append(line) }
        daemon = Daemon(
            settings: ServeSettings(outputRoot: outputRoot, maxJobs: maxJobs, defaultServer: nil, ice: .ice(ICEConfiguration(addresses: ["127.0.0.1"]), credentials: nil)),
            apiToken: Self.token, log: log, limits: limits, loops: loops, botFactory: botFactory)
        port = try daemon.start(ListenAddress(host: "127.0.0.1", port: 0))
        client = APIClient(base: "http://127.0.0.1:\(port)", token: Self.token)
    }

    var log: String { lines.text }

    func shutdown() async {
        await daemon.shutdown()
        loops.shutdown()
        try? FileManager.default.removeItem(atPath: outputRoot)
    }
}

/// Log lines, kept as they come.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var text: String { lines.withLock { $0.joined(separator: "\n") } }
}

/// A test bot: reports itself started and waits for its stop (then lingers `linger_ms`), or fails at once when its recipe
/// says `{"fail": "reason"}`.
struct ParkedBot: JobWork {
    let failure: String?
    var lingerMs = 0

    static let factory: BotJobFactory = { (request: BotJobRequest) throws(BotJobRejection) -> any JobWork in
        guard let recipe = request.recipe.objectValue else {
            throw .badRequest("this test factory takes inline recipes only")
        }
        return ParkedBot(failure: recipe["fail"]?.stringValue, lingerMs: Int(recipe["linger_ms"]?.integerValue ?? 0))
    }

    func run(until stop: StopRequest) async throws -> [String: JSONValue] {
        if let failure { throw JobFailure(description: failure) }
        _ = await stop.wait()
        if lingerMs > 0 { try await Task.sleep(for: .milliseconds(lingerMs)) }
        return ["stopped_by": "request"]
    }

    var progress: JobProgress { JobProgress(started: true) }

    var details: [String: JSONValue] { ["recipe": "parked"] }
}
