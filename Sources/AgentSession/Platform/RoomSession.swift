import AgentCore
import Foundation

/// What a ``Channel`` needs from a platform (Janus VideoRoom today, WHIP later), and nothing
/// more: the seam between the room API and the adapters. One instance serves one role of one
/// channel: an audience member (a recording, a host's listener) or a publishing host. The room
/// layer picks the adapter from the join's endpoint (`RoomPlatform`); the adapter funnels its own
/// errors into ``AgentError`` and reports what happens in the room as ``RoomSessionEvent``s to
/// the sink it was made with.
///
/// An adapter owns no media wiring of its own making: it drives ``SubscriberMedia`` and
/// ``PublisherMedia`` on the loop of its ``RoomSessionContext``.
///
/// **Order.** An audience session announces every participant (``RoomEvent/participantJoined(id:display:at:)``)
/// before any of their tracks, and subscribes to everyone it announces (``RoomSessionCapabilities/subscribe``):
/// there is no call to pick whom, because no caller picks yet.
///
/// **Reconnects.** An audience session recovers from drops under ``RoomJoin/reconnect`` with a
/// ``LinkDriver`` of its own (the one loop, run by a ``LinkStateMachine``), reporting
/// ``ConnectionState`` through ``RoomEvent/connectionState(_:at:)``; a host session reports only
/// that it ended, and its owner (BotKit's Bot) rejoins through a ``LinkDriver`` of its own.
/// Moving the audience's driver above the seam, with link signals in ``RoomSessionEvent``, is
/// what is left of slice S9.
public protocol RoomSession: Actor {
    /// What this platform can do; the channel refuses what it cannot before anything is sent.
    nonisolated var capabilities: RoomSessionCapabilities { get }

    /// Connects and joins under the session's role: an audience session as an unseen
    /// participant that announces the roster and subscribes to it, a host as a publisher that
    /// has published nothing yet. The first join is not retried.
    func connect() async throws(AgentError)

    /// A host's tracks (one send-only section each) and, with `dataChannel`, a data channel;
    /// returns once the media connection is up and the ``PublishSession`` runs.
    /// - Throws: ``AgentError/notHost`` on an audience session; what the platform said
    ///   (`codecRefused`, `mediaFailed`, …).
    func publish(tracks: [TrackOffer], dataChannel: Bool) async throws(AgentError) -> RoomPublication

    /// Sends a data message to everyone subscribed to the host's data.
    func send(_ payload: DataChannelMessage.Payload) async throws(AgentError)

    /// A host's send-side counters per published track (by mid); empty otherwise.
    func sendStatistics() async -> [String: SendStreamStatistics]

    /// Asks the sender of a participant's track for a keyframe, from any thread.
    nonisolated func requestKeyframe(participantID: String, kind: MediaKind)

    /// Uses these credentials for every later request and every rejoin, without reconnecting.
    func updateCredentials(_ credentials: RoomCredentials) async

    /// When `credentials`' token stops being accepted, if the platform's tokens say so (a Janus
    /// core token carries its expiry); nil for a token that does not say.
    nonisolated func tokenExpiry(of credentials: RoomCredentials) -> Date?

    /// Leaves the room and closes everything the session opened; reports the session's own end
    /// (``DisconnectReason/left``) where it reports states. Idempotent; tolerates a dead server.
    func teardown() async
}
