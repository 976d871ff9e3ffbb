import Agent
import AgentdCore

/// Settings that replace a recipe's own: `agentd bot`'s flags, or the fields of a daemon request.
/// It is a ``RoomJoinPatch`` (nil keeps the recipe's value; `create` only adds creating) plus the
/// duration, which is the recipe's and not the join's, and the codec of a pattern video track.
struct RecipeOverrides: Sendable, Equatable {
    var join: RoomJoinPatch
    var duration: Double?
    /// A name of ``RecipeParser/patternCodecs`` (`room`: the room's choice) for the recipe's
    /// pattern video track; `agentd bot --video-codec`.
    var patternCodec: String?

    init(server: String? = nil, room: String? = nil, token: String? = nil, pin: String? = nil, create: Bool? = nil,
         display: String? = nil, duration: Double? = nil, patternCodec: String? = nil) {
        join = RoomJoinPatch(server: server, room: room, token: token, pin: pin, create: create, display: display)
        self.duration = duration
        self.patternCodec = patternCodec
    }

    /// A daemon request's join fields, already a patch, and its duration.
    init(join: RoomJoinPatch, duration: Double?) {
        self.join = join
        self.duration = duration
    }

    /// The recipe with these settings applied. A recipe may leave its server and room to the
    /// command line, so it is not a RoomJoin yet: the patch's fields are laid on the recipe's
    /// own, under the patch's rules.
    func applied(to recipe: Recipe) -> Recipe {
        var result = recipe
        if let server = join.server { result.server = server }
        if let room = join.room { result.room = room }
        let credentials = join.applied(to: RoomCredentials(token: recipe.token, pin: recipe.pin))
        (result.token, result.pin) = (credentials.token, credentials.pin)
        if join.create == true { result.create = true }
        if let display = join.display { result.display = display }
        if let duration { result.duration = duration }
        if let patternCodec, case .pattern(let width, let height, let framesPerSecond, let bitrate, _) = recipe.video {
            result.video = .pattern(width: width, height: height, framesPerSecond: framesPerSecond, bitrate: bitrate,
                                    codec: RecipeParser.patternCodec(patternCodec))
        }
        return result
    }
}
