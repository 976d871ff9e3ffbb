import AgentCore

/// Typed VideoRoom (janus.plugin.videoroom) requests on one handle.
///
/// Room and participant ids are strings: the lab runs VideoRoom with `string_ids = true`.
/// Synchronous requests (create, exists, listparticipants, destroy) are answered with `success`;
/// join and leave are answered asynchronously by an `event` after the `ack`.
public struct VideoRoom: Sendable {
    public static let pluginName = "janus.plugin.videoroom"

    public let handle: JanusHandle

    public init(handle: JanusHandle) {
        self.handle = handle
    }

    /// Attaches a fresh VideoRoom handle to `session`.
    public static func attach(to session: JanusSession) async throws -> VideoRoom {
        VideoRoom(handle: try await session.attach(plugin: pluginName))
    }

    /// Whether the room exists.
    public func exists(room: String) async throws -> Bool {
        let reply = try await handle.message(["request": "exists", "room": .string(room)])
        guard let exists = reply.data["exists"]?.boolValue else {
            throw JanusError.malformed("exists reply without \"exists\"")
        }
        return exists
    }

    /// Creates a temporary room. Throws ``JanusError/plugin(code:reason:)`` 427 if it exists.
    public func create(room: String, options: VideoRoomCreateOptions = VideoRoomCreateOptions()) async throws {
        var body = options.fields
        body["request"] = "create"
        body["room"] = .string(room)
        let reply = try await handle.message(.object(body))
        guard reply.data["videoroom"]?.stringValue == "created" else {
            throw JanusError.malformed("create reply is not \"created\"")
        }
    }

    /// Creates `room` (up to 16 publishers, with `pin`) unless it exists; a create that loses a
    /// race with someone else's is fine. For `--create`.
    public func createIfMissing(room: String, pin: String?) async throws {
        guard try await !exists(room: room) else { return }
        var options = VideoRoomCreateOptions()
        options.pin = pin
        options.publishers = 16
        do {
            try await create(room: room, options: options)
        } catch JanusError.plugin(JanusError.Code.roomExists, _) {
            // Created by someone else between our check and our create.
        }
    }

    /// Destroys a room (cleanup of test or temporary rooms).
    public func destroy(room: String, secret: String? = nil) async throws {
        var body: [String: JSONValue] = ["request": "destroy", "room": .string(room)]
        if let secret { body["secret"] = .string(secret) }
        _ = try await handle.message(.object(body))
    }

    /// Joins as a publisher that never publishes: how an audience member gets the roster and
    /// its events. Returns our id, private id and the current publishers.
    /// - Throws: ``JanusError/plugin(code:reason:)`` 426 (no such room), 433 (bad pin/token).
    public func joinAsParticipant(room: String, display: String, pin: String? = nil, token: String? = nil) async throws
        -> VideoRoomJoined
    {
        var body: [String: JSONValue] = [
            "request": "join", "ptype": "publisher", "room": .string(room), "display": .string(display),
        ]
        if let pin { body["pin"] = .string(pin) }
        if let token { body["token"] = .string(token) }
        let reply = try await handle.message(.object(body))
        return try VideoRoomJoined(json: reply.data)
    }

    /// Everyone in the room, publishing or not.
    public func listParticipants(room: String) async throws -> [VideoRoomParticipant] {
        let reply = try await handle.message(["request": "listparticipants", "room": .string(room)])
        guard let list = reply.data["participants"]?.arrayValue else {
            throw JanusError.malformed("listparticipants reply without \"participants\"")
        }
        return list.compactMap(VideoRoomParticipant.init(json:))
    }

    /// Leaves the room (the handle stays attached).
    public func leave(timeout: Duration = .seconds(3)) async throws {
        _ = try await handle.message(["request": "leave"], timeout: timeout)
    }

    /// The handle's plugin events, interpreted. Non-plugin events (webrtcup, hangup...) are skipped.
    public var events: AsyncCompactMapSequence<AsyncStream<JanusMessage>, VideoRoomEvent> {
        handle.events.compactMap { message in
            message.pluginData.map(VideoRoomEvent.init(pluginData:))
        }
    }

    /// Close path for an audience member: leave, detach, destroy the session, close the socket.
    /// Each step tolerates a server that is already gone.
    public func close(closingSession: Bool = true) async {
        try? await leave()
        await handle.detach()
        guard closingSession else { return }
        await handle.session.destroy()
        await handle.session.connection.close()
    }
}
