import AgentCore
import Synchronization

/// A plugin handle inside a ``JanusSession``: sends plugin messages and trickle candidates, and
/// delivers the plugin's unsolicited events (`sender` == this handle).
public final class JanusHandle: Sendable {
    /// A plugin's final answer to a message: its `plugindata.data` and optional JSEP.
    public struct Reply: Sendable, Equatable {
        public let data: JSONValue
        public let jsep: JSONValue?
        public let message: JanusMessage
    }

    public let id: Int64
    public let plugin: String
    public let session: JanusSession
    /// Plugin events for this handle, plus webrtcup/media/hangup/slowlink/detached.
    public let events: AsyncStream<JanusMessage>
    private let detached = Atomic<Bool>(false)

    init(id: Int64, plugin: String, session: JanusSession, events: AsyncStream<JanusMessage>) {
        self.id = id
        self.plugin = plugin
        self.session = session
        self.events = events
    }

    /// Sends a plugin message and waits for its final reply (a synchronous `success` or the
    /// asynchronous `event` after the `ack`).
    /// - Throws: ``JanusError/plugin(code:reason:)`` when the plugin answers with `error_code`,
    ///   ``JanusError/server(code:reason:)`` when the core refuses it.
    public func message(_ body: JSONValue, jsep: JSONValue? = nil, timeout: Duration? = nil) async throws -> Reply {
        guard !detached.load(ordering: .acquiring) else { throw JanusError.gone("handle \(id) detached") }
        var fields: [String: JSONValue] = ["body": body]
        if let jsep { fields["jsep"] = jsep }
        let reply = try await session.connection.request(
            .message, session: session.id, handle: id, fields: fields, timeout: timeout)
        if let error = reply.pluginError { throw error }
        guard let data = reply.pluginData else { throw JanusError.malformed("plugin reply without plugindata.data") }
        return Reply(data: data, jsep: reply.jsep, message: reply)
    }

    /// Sends one ICE candidate (`{"candidate", "sdpMid", "sdpMLineIndex"}`).
    public func trickle(candidate: JSONValue) async throws {
        _ = try await session.connection.request(
            .trickle, session: session.id, handle: id, fields: ["candidate": candidate])
    }

    /// Signals the end of candidates (`{"completed": true}`).
    public func trickleCompleted() async throws {
        try await trickle(candidate: ["completed": true])
    }

    /// Detaches from the plugin. Idempotent; tolerates a dead server.
    public func detach(timeout: Duration = .seconds(3)) async {
        guard !detached.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = try? await session.connection.request(.detach, session: session.id, handle: id, timeout: timeout)
        await session.connection.removeEvents(session: session.id, handle: id)
    }
}
