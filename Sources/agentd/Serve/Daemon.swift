import Agent
import AgentdCore
import JobQueue

/// The daemon assembled: an HTTP server on its own event loop (the API answers apart from the
/// media, which runs on the process's ``LoopGroup``), the API handler and the job registry. `agentd serve` runs one; tests run one in process with their own bot factory.
final class Daemon: Sendable {
    let registry: JobRegistry
    let log: ServeLog
    private let loop: EventLoop
    private let server: HTTPServer

    /// - Parameter queue: with `serve --redis`, the job queue the API submits to and reads from.
    init(settings: ServeSettings, apiToken: String, log: ServeLog, limits: HTTPLimits = .standard, loops: LoopGroup,
         botFactory: @escaping BotJobFactory, queue: JobQueue? = nil) {
        self.log = log
        log.redact(apiToken)
        registry = JobRegistry(limit: settings.maxJobs, log: log)
        let admission = RequestAdmission(auth: APIAuth(token: apiToken))
        let handler = APIHandler(
            admission: admission, registry: registry, queued: queue.map { QueuedJobs(queue: $0, settings: settings) }, settings: settings,
            loops: loops, botFactory: botFactory, log: log)
        loop = EventLoop(name: "agentd.http")
        server = HTTPServer(
            loop: loop, limits: limits,
            handlers: HTTPServer.Handlers(
                executor: APIExecutor.shared,
                admit: { head, bodyBytes in
                    guard case .refuse(let response) = admission.decide(head, bodyBytes: bodyBytes) else { return nil }
                    return response
                },
                refused: { head, response in handler.logAnswer(head, response) },
                respond: { request in await handler.handle(request) }))
    }

    /// Listens and returns the bound port.
    func start(_ address: ListenAddress) throws -> UInt16 {
        try server.listen(host: address.host, port: address.port)
    }

    /// Takes no new jobs (503), stops every job and waits until their files are final, then
    /// closes the HTTP server. The API keeps answering while the jobs wind down.
    func shutdown() async {
        await registry.shutdown()
        server.stop()
        loop.shutdown()
    }
}
