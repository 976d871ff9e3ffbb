import AgentdCore
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
            SharedOptions.exitCodeNote,
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        var config = ServeConfig()
        if let path = arguments.value("config") {
            do {
                config = try ServeConfig(path: path)
            } catch {
                throw CommandFailure(.usage, "--config: \(error)", hint: "see contrib/config.example.json")
            }
        }
        let environmentToken = context.environment["AGENTD_API_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        guard let token = environmentToken ?? config.apiToken else {
            throw CommandFailure(.usage, "no API token: the daemon will not run an open API",
                                 hint: "set AGENTD_API_TOKEN or api_token in the --config file")
        }
        let listenText = arguments.value("listen") ?? config.listen
        guard let address = listenText.map({ ListenAddress(parsing: $0) }) ?? ListenAddress.default else {
            throw UsageError.invalidValue(option: "listen", value: listenText ?? "", expected: "HOST:PORT with an IP address")
        }
        var format = config.logFormat
        if let text = arguments.value("log-format") {
            guard let parsed = ServeLog.Format(rawValue: text) else {
                throw UsageError.invalidValue(option: "log-format", value: text, expected: "text or json")
            }
            format = parsed
        }
        var mediaRoot: String?
        if let root = config.mediaRoot {
            var isDirectory: ObjCBool = false
            guard let real = RecipeMediaRoot.realPath(root), FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory),
                  isDirectory.boolValue
            else {
                throw CommandFailure(.usage, "--config: media_root \(root) is not a directory", hint: "see contrib/config.example.json")
            }
            mediaRoot = real
        }
        let username = arguments.value("ice-username") ?? config.iceUsername
        let credential = arguments.value("ice-credential") ?? config.iceCredential
        let ice = try SharedOptions.ice(
            allow: arguments.value("ice-allow") ?? config.iceAllow, servers: arguments.value("ice-server") ?? config.iceServers,
            username: username, credential: credential, policy: arguments.value("ice-policy") ?? config.icePolicy)
        let settings = ServeSettings(
            outputRoot: config.outputRoot, maxJobs: config.maxJobs, defaultServer: config.server, ice: ice, mediaRoot: mediaRoot)

        let log = ServeLog(format: format, write: context.standardError)
        log.redact(config.server.flatMap(JanusURL.credentials))
        log.redact(username)
        log.redact(credential)
        let stopSignal = StopSignal()
        defer { stopSignal.cancel() }
        let recipes = RecipeLibrary(directory: URL(fileURLWithPath: context.environment["AGENTD_RECIPES"].flatMap { $0.isEmpty ? nil : $0 } ?? "recipes"))
        let bots = RecipeBotJobs.factory(
            recipes: recipes, environment: RecipeEnvironment(loops: context.loops, variables: context.environment, log: { line in log.info(line) }))
        let daemon = Daemon(settings: settings, apiToken: token, log: log, loops: context.loops, botFactory: bots)
        let port: UInt16
        do {
            port = try daemon.start(address)
        } catch {
            await daemon.shutdown()
            throw CommandFailure(.failure, ErrorText.describe(error), hint: "choose another --listen")
        }
        log.info("listening on \(address.url(port: port))", ["output_root": settings.outputRoot, "max_jobs": String(settings.maxJobs)])
        let signal = await stopSignal.wait()
        log.info("stopping: finishing every job", ["signal": signal == SIGTERM ? "SIGTERM" : "SIGINT"])
        await daemon.shutdown()
        log.info("stopped")
        return .ok
    }
}
