import AgentCore

/// What a room lets publishers send, read from the VideoRoom `list` request (the room list with
/// each room's settings), so a refused publish can say which codecs the room would have taken.
extension VideoRoom {
    /// The codecs `room` allows, or nil when the list does not show it: Janus lists private
    /// rooms (`is_private`) only to requests that carry the plugin's admin key.
    /// - Throws: ``JanusError`` when the request itself fails.
    public func allowedCodecs(room: String, adminKey: String? = nil) async throws -> AllowedCodecs? {
        var body: [String: JSONValue] = ["request": "list"]
        if let adminKey { body["admin_key"] = .string(adminKey) }
        let reply = try await handle.message(.object(body))
        guard let rooms = reply.data["list"]?.arrayValue else {
            throw JanusError.malformed("list reply without \"list\"")
        }
        guard let entry = rooms.first(where: { $0["room"]?.idString == room }) else { return nil }
        return AllowedCodecs(listEntry: entry)
    }
}
