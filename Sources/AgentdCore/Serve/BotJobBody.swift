import AgentCore

/// `POST /v1/bots`'s body, `{"recipe": {...} or "name", "server"?, "room"?, "token"?, "pin"?,
/// "create"?, "display"?, "duration"?}`, checked and turned into a ``BotJobRequest`` with the
/// daemon's defaults. The join fields are the recording body's, under the same rules
/// (``RecordingJobBody``), and become a ``RoomJoinPatch`` laid over the recipe's own join. The
/// recipe itself is read later, by the bot factory (``RecipeParser`` for an inline one). Every
/// mistake is a 400 with a message naming the field.
package enum BotJobBody {
    package static let keys: Set<String> = ["recipe", "server", "room", "token", "pin", "create", "display", "duration"]

    package static func request(_ body: JSONValue, settings: ServeSettings) throws(APIError) -> BotJobRequest {
        guard let object = body.objectValue else { throw .badRequest("the body must be a JSON object") }
        let unknown = object.keys.filter { !keys.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw .badRequest("unknown field(s) \(unknown.joined(separator: ", ")); known: \(keys.sorted().joined(separator: ", "))")
        }
        guard let recipe = object["recipe"], recipe.objectValue != nil || recipe.stringValue?.isEmpty == false else {
            throw .badRequest("recipe is required: a recipe object, or the name of a shipped recipe")
        }
        var server: String?
        if let text = object["server"]?.stringValue {
            guard text.utf8.count <= RecipeFields.maximumStringBytes, JanusURL.parse(text) != nil else {
                throw .badRequest("server must be a ws:// or wss:// URL")
            }
            server = text
        } else if let value = object["server"], value != .null {
            throw .badRequest("server must be a ws:// or wss:// URL")
        }
        var room: String?
        if let value = object["room"], value != .null {
            guard let text = value.stringValue, ChannelName.isValid(text) else {
                throw .badRequest("room must be a room name of \(ChannelName.ruleDescription)")
            }
            room = text
        }
        let join = RoomJoinPatch(
            server: server ?? settings.defaultServer, room: room,
            token: try RecordingJobBody.string(object, "token"), pin: try RecordingJobBody.string(object, "pin"),
            create: try RecordingJobBody.create(object["create"]), display: try RecordingJobBody.display(object))
        return BotJobRequest(
            recipe: recipe, join: join, duration: try RecordingJobBody.duration(object["duration"]),
            ice: settings.ice, outputRoot: settings.outputRoot, mediaRoot: settings.mediaRoot)
    }
}
