import AgentCore

/// What `POST /v1/bots` hands the recipe runner: the body's `recipe` (an inline object, or a
/// recipe name as a string) with its overrides, and the daemon's defaults.
package struct BotJobRequest: Sendable {
    package let recipe: JSONValue
    /// The body's join fields (server, room, token, pin, create, display), laid over the
    /// recipe's own; the server falls back to the config's. Its token and pin are redacted in
    /// every textual form (``RoomCredentials``).
    package let join: RoomJoinPatch
    package let duration: Double?
    /// The daemon's ICE settings (``ServeSettings/ice``), laid over every bot's join.
    package let ice: RoomJoinPatch
    /// The config's output root, for recipes that write files.
    package let outputRoot: String
    /// The config's media root (a real path): the only place the recipe's files may come from;
    /// nil refuses file media.
    package var mediaRoot: String? = nil

    package init(recipe: JSONValue, join: RoomJoinPatch, duration: Double?, ice: RoomJoinPatch, outputRoot: String,
                 mediaRoot: String? = nil) {
        self.recipe = recipe
        self.join = join
        self.duration = duration
        self.ice = ice
        self.outputRoot = outputRoot
        self.mediaRoot = mediaRoot
    }
}
