import Agent
import AgentdCore
import Foundation
import JobQueue

/// `agentd worker`: runs the jobs an `agentd serve --redis` queued.
enum WorkerCommand: Command {
    static let defaultAddress = ListenAddress(parsing: "127.0.0.1:8081")

    static let spec = CommandSpec(
        name: "worker",
        summary: "Run queued jobs from Redis: claim recordings and bots while there is room, hold a lease on each, take over jobs of workers that died.",
        options: [
            .value("redis", "URL", "The job queue: \(RedisURL.rule). Default: the config's redis."),
            .value("capacity", "N", "What this worker may hold at once, in the units of --costs. Default: its CPU cores."),
            .value("costs", "LIST", "What jobs cost: \(JobCosts.rule). Default: recording=0.25,participant=0.1,composite=1,bot=0.25."),
            .value("name", "NAME", "Its name in the queue (1-64 of A-Z a-z 0-9 _ -). Default: <hostname>-<pid>."),
            .value("lease", "SEC", "How long a job stays held without a heartbeat (2-600). Default: 15."),
            .value("heartbeat", "SEC", "How often the lease is renewed (at most a third of --lease). Default: 5."),
            .value("max-attempts", "N", "Runs of a job (failures, lapsed leases) before it goes to the dead-letter stream (1-100). Default: 3."),
            .value("config", "FILE", "The daemon's JSON config file: output_root, server, ice_*, media_root, redis, log_format."),
            .value("listen", "HOST:PORT", "Where /healthz and /metrics answer. Default: 127.0.0.1:8081 (port 0: any free port)."),
            .value("log-format", "FORMAT", "text or json (JSON lines). Default: the config's log_format, else text."),
        ] + SharedOptions.ice,
        notes: [
            "Recordings go to <output_root>/<out> with the out the API node named: workers and API nodes need one shared "
                + "output_root (a shared filesystem at the same path), or the files stay on the worker that wrote them.",
            "A job whose worker stops heartbeating is taken over by another worker after --lease; a recording continues in its "
                + "directory as its next part (the manifest lists the gap). A worker that lost its lease writes nothing more of the job.",
            "SIGINT and SIGTERM: take no new jobs, stop the held ones with their files final, and give them back to the queue "
                + "for another worker to continue; exit 0.",
            SharedOptions.exitCodeNote,
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let setup = try DaemonSetup(arguments, context: context, defaultAddress: defaultAddress)
        guard let url = setup.redis else {
            throw CommandFailure(.usage, "no job queue: give --redis URL or the config's redis", hint: RedisURL.rule)
        }
        let settings = try workerSettings(arguments)
        let log = setup.log
        let control = JobQueue(client: RedisClient(url: url, name: "control"), keys: .standard)
        let reader = JobQueue(client: RedisClient(url: url, name: "reader"), keys: .standard)
        let factory = WorkerJobFactory(settings: setup.settings, loops: context.loops, botFactory: setup.botFactory(context), log: log)
        let worker = Worker(settings: settings, reader: reader, control: control, factory: factory, log: log)

        let loop = EventLoop(name: "agentd.http")
        defer { loop.shutdown() }
        let server = HTTPServer(
            loop: loop, limits: .standard,
            handlers: HTTPServer.Handlers(
                executor: APIExecutor.shared, admit: { _, bodyBytes in bodyBytes > 0 ? .json(413, ["error": "no bodies here"]) : nil },
                refused: { _, _ in }, respond: { request in await WorkerHTTP.respond(request, worker: worker) }))
        let port: UInt16
        do {
            port = try server.listen(host: setup.address.host, port: setup.address.port)
        } catch {
            throw CommandFailure(.failure, ErrorText.describe(error), hint: "choose another --listen")
        }
        defer { server.stop() }
        let stopSignal = StopSignal()
        defer { stopSignal.cancel() }
        log.info("worker \(settings.name) listening on \(setup.address.url(port: port))", [
            "redis": url.display, "capacity": String(settings.capacity), "output_root": setup.settings.outputRoot,
        ])
        let running = Task { await worker.run() }
        let signal = await stopSignal.wait()
        log.info("stopping: giving the held jobs back to the queue", ["signal": signal == SIGTERM ? "SIGTERM" : "SIGINT"])
        await worker.shutdown()
        await running.value
        log.info("stopped")
        return .ok
    }

    static func workerSettings(_ arguments: ParsedArguments) throws -> WorkerSettings {
        let name = arguments.value("name") ?? "\(ProcessInfo.processInfo.hostName.prefix(40))-\(getpid())"
        let cleanName = String(name.map { JobID.isValid(String($0)) ? $0 : "-" })
        guard JobID.isValid(cleanName), arguments.value("name") == nil || cleanName == name else {
            throw UsageError.invalidValue(option: "name", value: String(name.prefix(80)), expected: JobID.rule)
        }
        var capacity = Double(ProcessInfo.processInfo.activeProcessorCount)
        if let text = arguments.value("capacity") {
            guard let value = Double(text), value.isFinite, value > 0, value <= 100_000 else {
                throw UsageError.invalidValue(option: "capacity", value: text, expected: "a number above 0, at most 100000")
            }
            capacity = value
        }
        var settings = WorkerSettings(name: cleanName, capacity: capacity)
        if let text = arguments.value("costs") {
            guard let costs = JobCosts(parsing: text) else { throw UsageError.invalidValue(option: "costs", value: String(text.prefix(80)), expected: JobCosts.rule) }
            settings.costs = costs
        }
        if let lease = try arguments.seconds("lease", atMost: 600, rule: "a number of seconds from 2 to 600") {
            guard lease >= 2 else { throw UsageError.invalidValue(option: "lease", value: String(lease), expected: "a number of seconds from 2 to 600") }
            settings.lease = .milliseconds(Int64(lease * 1000))
        }
        if let heartbeat = try arguments.seconds("heartbeat", atMost: 200, rule: "a number of seconds, at most a third of --lease") {
            settings.heartbeat = .milliseconds(Int64(heartbeat * 1000))
        }
        guard settings.heartbeat * 3 <= settings.lease else {
            throw UsageError.invalidValue(option: "heartbeat", value: arguments.value("heartbeat") ?? "5", expected: "at most a third of --lease")
        }
        settings.stopCheck = min(settings.stopCheck, settings.heartbeat)
        if let text = arguments.value("max-attempts") {
            guard let value = Int(text), (1...100).contains(value) else {
                throw UsageError.invalidValue(option: "max-attempts", value: text, expected: "an integer from 1 to 100")
            }
            settings.maxAttempts = value
        }
        return settings
    }
}
