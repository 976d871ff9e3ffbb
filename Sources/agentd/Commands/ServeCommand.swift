import AgentdCore
import JobQueue
import Foundation

/// `agentd serve`: the daemon with the HTTP job API.
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        summary: "Run the daemon: an HTTP JSON API under /v1 that records rooms and runs bots on demand.",
        options: [
            .value("config", "FILE", "JSON config file (output root, job limits, server URL, ICE allow-list and servers, api_token)."),
            .value("listen", "HOST:PORT", "Address to listen on. Default: 127.0.0.1:8080 (port 0: any free port)."),
            .value("log-format", "FORMAT", "text or json (JSON lines). Default: the config's log_format, else text."),
            .value("redis", "URL", "Queue jobs in Redis (\(RedisURL.rule)) for `agentd worker`s to run, instead of running them here."),
        ] + SharedOptions.ice,
        notes: [
            "The API token comes from AGENTD_API_TOKEN or the config's api_token (the environment wins); without one "
                + "the daemon refuses to start. Every /v1 path needs 'Authorization: Bearer <token>'; /healthz and /metrics do not.",
            "Config keys: output_root (default ./recordings), max_jobs (default 4), server, ice_allow, api_token, log_format, "
                + "listen, media_root, ice_servers, ice_username, ice_credential, ice_policy. Unknown keys are an error. "
                + "--listen, --log-format and the --ice-* options win over the config, one by one.",
            "API bots play files only from under media_root (real paths: no .. or symlink leads out); without it they play none (400).",
            "SIGINT and SIGTERM: take no new jobs (503), stop every job, finalize every recording, exit 0.",
            "POST /v1/bots runs a recipe given inline or by name; names are looked up in $AGENTD_RECIPES, else ./recipes.",
            "With --redis (or the config's redis), POST queues the job in Redis and workers run it; GET and DELETE read and stop "
                + "any job from any API node; a body may carry an \"id\" (\(JobID.rule)): a second submit with it returns the first job. "
                + "/healthz answers 503 while Redis is down.",
            SharedOptions.exitCodeNote,
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let setup = try DaemonSetup(arguments, context: context, defaultAddress: ListenAddress.default)
        let environmentToken = context.environment["AGENTD_API_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        guard let token = environmentToken ?? setup.config.apiToken else {
            throw CommandFailure(.usage, "no API token: the daemon will not run an open API",
                                 hint: "set AGENTD_API_TOKEN or api_token in the --config file")
        }
        let (settings, log, address) = (setup.settings, setup.log, setup.address)
        let stopSignal = StopSignal()
        defer { stopSignal.cancel() }
        let queue = setup.redis.map { url in JobQueue(client: RedisClient(url: url, name: "api"), keys: JobQueueKeys.standard) }
        let daemon = Daemon(settings: settings, apiToken: token, log: log, loops: context.loops, botFactory: setup.botFactory(context), queue: queue)
        let port: UInt16
        do {
            port = try daemon.start(address)
        } catch {
            await daemon.shutdown()
            throw CommandFailure(.failure, ErrorText.describe(error), hint: "choose another --listen")
        }
        if let queue {
            do {
                try await queue.prepare()
            } catch {
                log.warn("Redis is not reachable yet; the API answers 503 until it is", ["error": error.description])
            }
        }
        log.info("listening on \(address.url(port: port))", [
            "output_root": settings.outputRoot, "max_jobs": String(settings.maxJobs), "redis": queue?.client.url.display ?? "-",
        ])
        let signal = await stopSignal.wait()
        log.info("stopping: finishing every job", ["signal": signal == SIGTERM ? "SIGTERM" : "SIGINT"])
        await daemon.shutdown()
        log.info("stopped")
        return .ok
    }
}
