import AgentdCore

/// Settings that replace a recipe's own: `agentd bot`'s flags, or the fields of a daemon request.
/// nil keeps the recipe's value.
struct RecipeOverrides: Sendable, Equatable {
    var server: String?
    var room: String?
    var token: String?
    var pin: String?
    /// Only `true` overrides (a flag can add `--create`, not take it away).
    var create: Bool?
    var display: String?
    var duration: Double?

    init(server: String? = nil, room: String? = nil, token: String? = nil, pin: String? = nil, create: Bool? = nil,
         display: String? = nil, duration: Double? = nil) {
        self.server = server
        self.room = room
        self.token = token
        self.pin = pin
        self.create = create
        self.display = display
        self.duration = duration
    }

    /// The recipe with these settings applied.
    func applied(to recipe: Recipe) -> Recipe {
        var result = recipe
        if let server { result.server = server }
        if let room { result.room = room }
        if let token { result.token = token }
        if let pin { result.pin = pin }
        if let create { result.create = create }
        if let display { result.display = display }
        if let duration { result.duration = duration }
        return result
    }
}
