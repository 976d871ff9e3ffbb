import AgentCore

/// A VideoRoom subscriber handle in Janus 1.x multistream mode: one PeerConnection carrying
/// many publishers' streams. Janus is the offerer; every change (`subscribe`, `unsubscribe`, a
/// publisher going away) comes back as an `updated` event with a new offer to answer with `start`.
public struct VideoRoomSubscriber: Sendable {
    public let handle: JanusHandle
    public let room: String

    /// An offer from Janus with the streams it describes.
    public struct Offer: Sendable, Equatable {
        public let sdp: String
        public let streams: [VideoRoomSubscriberStream]
    }

    /// Attaches a subscriber handle and joins `room` subscribed to `feeds` (all their streams).
    /// - Throws: ``JanusError/plugin(code:reason:)`` 426 (no such room), 428 (no such feed), 433.
    public static func join(
        session: JanusSession, room: String, feeds: [String], privateID: Int64? = nil, pin: String? = nil,
        token: String? = nil
    ) async throws -> (VideoRoomSubscriber, Offer) {
        let handle = try await session.attach(plugin: "janus.plugin.videoroom")
        var body: [String: JSONValue] = [
            "request": "join", "ptype": "subscriber", "room": .string(room),
            "streams": .array(feeds.map { ["feed": .string($0)] }),
        ]
        if let privateID { body["private_id"] = .integer(privateID) }
        if let pin { body["pin"] = .string(pin) }
        if let token { body["token"] = .string(token) }
        do {
            let reply = try await handle.message(.object(body))
            let offer = try Self.offer(from: reply.data, jsep: reply.jsep)
            return (VideoRoomSubscriber(handle: handle, room: room), offer)
        } catch {
            await handle.detach()
            throw error
        }
    }

    /// Answers the current offer (`start` with our SDP answer).
    public func start(answer sdp: String) async throws {
        _ = try await handle.message(["request": "start"], jsep: ["type": "answer", "sdp": .string(sdp)])
    }

    /// Adds every stream of `feeds`. Janus answers with an `updated` event and a new offer; it
    /// may also arrive on the event stream instead, so nil means "watch the events".
    public func subscribe(feeds: [String]) async throws -> Offer? {
        let reply = try await handle.message([
            "request": "subscribe", "streams": .array(feeds.map { ["feed": .string($0)] }),
        ])
        return try? Self.offer(from: reply.data, jsep: reply.jsep)
    }

    /// Removes every stream of `feeds` (a renegotiation follows, as for ``subscribe(feeds:)``).
    public func unsubscribe(feeds: [String]) async throws -> Offer? {
        let reply = try await handle.message([
            "request": "unsubscribe", "streams": .array(feeds.map { ["feed": .string($0)] }),
        ])
        return try? Self.offer(from: reply.data, jsep: reply.jsep)
    }

    /// Reads an offer from plugin data + JSEP (`attached` or `updated`).
    public static func offer(from data: JSONValue, jsep: JSONValue?) throws -> Offer {
        guard let jsep, jsep["type"]?.stringValue == "offer", let sdp = jsep["sdp"]?.stringValue else {
            throw JanusError.malformed("\(data["videoroom"]?.stringValue ?? "reply") without an SDP offer")
        }
        return Offer(sdp: sdp, streams: VideoRoomSubscriberStream.list(data["streams"]))
    }

    /// Leaves and detaches. Tolerates a dead server.
    public func close() async {
        _ = try? await handle.message(["request": "leave"], timeout: .seconds(3))
        await handle.detach()
    }
}
