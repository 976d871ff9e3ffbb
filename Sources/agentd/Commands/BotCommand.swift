import Agent
import AgentdCore
import Foundation

/// `agentd bot`: run a bot recipe (recipes/README.md) in a room until its duration passes, its
/// files end, or SIGINT/SIGTERM.
enum BotCommand: Command {
    static let spec = CommandSpec(
        name: "bot",
        summary: "Run a bot recipe (JSON) in a room.",
        positionals: ["RECIPE.json"],
        options: [
            .value("server", "WS_URL", "Janus WebSocket URL; overrides the recipe."),
            .value("room", "ROOM", "Room id; overrides the recipe."),
            SharedOptions.duration,
            .value("token", "T", "Janus core token; overrides the recipe."),
            .value("pin", "P", "Room pin; overrides the recipe."),
            .flag("create", "Create the room if it does not exist (as the recipe's \"create\": true)."),
            .value("display", "NAME", "Display name; overrides the recipe (load participants add -1, -2, ...)."),
            .value("recipes", "DIR", "Where a recipe given by name (e.g. 'tone') is found. Default: ./recipes.", environment: "AGENTD_RECIPES"),
            .value("video-codec", "CODEC", "vp8, h264, or room (the first of the room's codecs a bot can send): the codec of the recipe's pattern video; overrides its \"codec\"."),
        ] + SharedOptions.ice,
        notes: [
            "RECIPE.json is a recipe file, or the name of one in --recipes (tone, player, echo, announcer, greeter, recorder, load).",
            "Recipes are checked strictly before anything joins: an unknown key or a bad value exits 2 naming its JSON path.",
            "Relative file paths in a recipe are relative to the recipe file. --duration, SIGINT and SIGTERM stop cleanly.",
            "At the end one line on stderr says what it did (participants, packets, greetings, announcements, echoed frames).",
            SharedOptions.exitCodeNote,
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let recipe = try load(arguments.positionals[0], recipes: arguments.value("recipes"))
        let overrides = RecipeOverrides(
            server: try arguments.serverURL()?.absoluteString, room: try arguments.roomName(), token: arguments.value("token"),
            pin: arguments.value("pin"), create: arguments.has("create") ? true : nil, display: try arguments.displayName(),
            duration: try arguments.seconds("duration"), patternCodec: try videoCodec(arguments.value("video-codec"), for: recipe))
        let ice = try SharedOptions.ice(arguments)
        let runner = RecipeRunner(
            recipe: recipe, overrides: overrides, ice: ice,
            environment: RecipeEnvironment(loops: context.loops, variables: context.environment, log: context.standardError))
        let stopSignal = StopSignal()
        defer { stopSignal.cancel() }
        let outcome = try await runner.run(until: { _ = await stopSignal.wait() })
        context.standardError("agentd: \(outcome.line)")
        return .ok
    }

    /// `--video-codec`, checked: a name of ``RecipeParser/patternCodecs``, for a recipe whose
    /// video is a pattern (a file plays in its own codec).
    static func videoCodec(_ name: String?, for recipe: Recipe) throws -> String? {
        guard let name else { return nil }
        guard RecipeParser.patternCodecs.contains(name) else {
            throw CommandFailure(.usage, "--video-codec must be one of \(RecipeParser.patternCodecs.joined(separator: ", ")), not '\(name)'")
        }
        guard case .pattern = recipe.video else {
            throw CommandFailure(.usage, "--video-codec sets the codec of a pattern video track, and recipe '\(recipe.name)' has none",
                                 hint: "a file plays in its own codec")
        }
        return name
    }

    /// A path (anything with a `/` or ending in .json), else a name in the recipes directory.
    static func load(_ argument: String, recipes: String?) throws -> Recipe {
        do {
            if argument.contains("/") || argument.hasSuffix(".json") { return try RecipeLibrary.load(path: argument) }
            return try RecipeLibrary(directory: URL(fileURLWithPath: recipes ?? "recipes")).recipe(named: argument)
        } catch {
            throw CommandFailure(.usage, error.description, hint: "see recipes/README.md")
        }
    }
}
