import AgentdCore
import Foundation
import JobQueue

/// What `agentd serve` and `agentd worker` read alike: the config file, the listen address,
/// the log, the ICE and media settings, the Redis URL, and the recipe bots' factory.
struct DaemonSetup {
    let config: ServeConfig
    let settings: ServeSettings
    let log: ServeLog
    let address: ListenAddress
    /// `--redis` or the config's `redis`; nil without either.
    let redis: RedisURL?

    static let configHint = "see contrib/config.example.json"

    init(_ arguments: ParsedArguments, context: CommandContext, defaultAddress: ListenAddress?) throws {
        var config = ServeConfig()
        if let path = arguments.value("config") {
            do {
                config = try ServeConfig(path: path)
            } catch {
                throw CommandFailure(.usage, "--config: \(error)", hint: Self.configHint)
            }
        }
        let listenText = arguments.value("listen") ?? config.listen
        guard let address = listenText.map({ ListenAddress(parsing: $0) }) ?? defaultAddress else {
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
                throw CommandFailure(.usage, "--config: media_root \(root) is not a directory", hint: Self.configHint)
            }
            mediaRoot = real
        }
        if let text = arguments.value("redis") ?? config.redis {
            guard let url = RedisURL(text) else {
                throw UsageError.invalidValue(option: "redis", value: RedisURL(text)?.display ?? "(not shown: it may hold a password)", expected: RedisURL.rule)
            }
            redis = url
        } else {
            redis = nil
        }
        let username = arguments.value("ice-username") ?? config.iceUsername
        let credential = arguments.value("ice-credential") ?? config.iceCredential
        let ice = try SharedOptions.ice(
            allow: arguments.value("ice-allow") ?? config.iceAllow, servers: arguments.value("ice-server") ?? config.iceServers,
            username: username, credential: credential, policy: arguments.value("ice-policy") ?? config.icePolicy)
        settings = ServeSettings(
            outputRoot: config.outputRoot, maxJobs: config.maxJobs, defaultServer: config.server, ice: ice, mediaRoot: mediaRoot)
        log = ServeLog(format: format, write: context.standardError)
        log.redact(config.server.flatMap(JanusURL.credentials))
        log.redact(username)
        log.redact(credential)
        log.redact(redis?.password)
        self.config = config
        self.address = address
    }

    /// The recipe runner for API bots, with recipes by name from $AGENTD_RECIPES, else ./recipes.
    func botFactory(_ context: CommandContext) -> BotJobFactory {
        let log = self.log
        let recipes = RecipeLibrary(directory: URL(fileURLWithPath: context.environment["AGENTD_RECIPES"].flatMap { $0.isEmpty ? nil : $0 } ?? "recipes"))
        return RecipeBotJobs.factory(
            recipes: recipes, environment: RecipeEnvironment(loops: context.loops, variables: context.environment, log: { line in log.info(line) }))
    }
}
