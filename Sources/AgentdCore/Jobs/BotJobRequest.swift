import AgentCore

/// What `POST /v1/bots` hands the recipe runner: the body's `recipe` (an inline object, or a
/// recipe name as a string) with its overrides, and the daemon's defaults.
package struct BotJobRequest: Sendable {
    package let recipe: JSONValue
    package let server: String?
    package let room: String?
    package let duration: Double?
    /// The daemon's ICE allow-list, resolved to addresses.
    package let iceAddresses: [String]
    /// The config's output root, for recipes that write files.
    package let outputRoot: String
    /// The config's media root (a real path): the only place the recipe's files may come from;
    /// nil refuses file media.
    package var mediaRoot: String? = nil

    package init(recipe: JSONValue, server: String?, room: String?, duration: Double?, iceAddresses: [String], outputRoot: String,
                 mediaRoot: String? = nil) {
        self.recipe = recipe
        self.server = server
        self.room = room
        self.duration = duration
        self.iceAddresses = iceAddresses
        self.outputRoot = outputRoot
        self.mediaRoot = mediaRoot
    }
}
