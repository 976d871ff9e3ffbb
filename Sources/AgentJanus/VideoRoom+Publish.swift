import AgentCore

/// Publishing on a VideoRoom handle that joined as a publisher (Janus 1.x): the client offers,
/// Janus answers. `publish` carries the offer and returns Janus's answer.
extension VideoRoom {
    /// Joins `room` as a publisher (visible to everyone) and returns the roster.
    public func joinAsPublisher(room: String, display: String, pin: String? = nil, token: String? = nil) async throws -> VideoRoomJoined {
        try await joinAsParticipant(room: room, display: display, pin: pin, token: token)
    }

    /// Sends our offer and returns Janus's SDP answer.
    /// - Throws: ``JanusError/plugin(code:reason:)`` when the room refuses the codecs (e.g. 434
    ///   no codec) or we have not joined.
    public func publish(offer sdp: String, display: String? = nil) async throws -> String {
        var body: [String: JSONValue] = ["request": "publish"]
        if let display { body["display"] = .string(display) }
        let reply = try await handle.message(.object(body), jsep: ["type": "offer", "sdp": .string(sdp)])
        guard let jsep = reply.jsep, jsep["type"]?.stringValue == "answer", let answer = jsep["sdp"]?.stringValue else {
            throw JanusError.malformed("publish reply without an SDP answer")
        }
        return answer
    }

    /// Stops publishing (the handle stays in the room).
    public func unpublish() async throws {
        _ = try await handle.message(["request": "unpublish"], timeout: .seconds(3))
    }
}
