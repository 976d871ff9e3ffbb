import Foundation
import Synchronization

@testable import Agent
@testable import AgentCore
@testable import AgentSession

/// A platform with no network behind ``RoomSession``, for running a ``Channel`` over the seam:
/// it records every call, announces a scripted roster (each participant before their tracks),
/// and publishes onto a loopback PeerConnection that never connects.
final class FakeRoomPlatform: Sendable {
    struct Participant: Sendable {
        var id: String
        var display: String
        var kinds: [MediaKind]
    }

    /// What the sessions do; set before the join.
    struct Script: Sendable {
        var capabilities: RoomSessionCapabilities = [.roster, .subscribe, .publish, .data]
        var roster: [Participant] = []
        var publisherID = "me"
        /// Thrown by `connect()` (the platform's refusal, already an AgentError).
        var connectError: AgentError?
        var tokenExpiry: Date?
    }

    /// One call a session received, in order over every session of the platform.
    enum Call: Sendable, Equatable {
        case made(role: ChannelRole, ignored: Set<String>, create: Bool, credentials: RoomCredentials)
        case connect(ChannelRole)
        case publish(mids: [String], dataChannel: Bool)
        case send(DataChannelMessage.Payload)
        case updateCredentials(ChannelRole, RoomCredentials)
        case teardown(ChannelRole)
    }

    let script: Mutex<Script>
    private let recorded = Mutex<[Call]>([])

    init(_ script: Script = Script()) {
        self.script = Mutex(script)
    }

    var calls: [Call] { recorded.withLock { $0 } }

    func record(_ call: Call) {
        recorded.withLock { $0.append(call) }
    }

    /// The platform a test engine makes its channels' sessions with.
    var platform: RoomPlatform {
        RoomPlatform { [self] join, credentials, context throws(AgentError) in
            record(.made(role: join.role, ignored: join.ignoredParticipantIDs, create: join.create, credentials: credentials))
            return FakeRoomSession(join: join, script: script.withLock { $0 }, context: context, platform: self)
        }
    }
}

actor FakeRoomSession: RoomSession {
    nonisolated let capabilities: RoomSessionCapabilities
    private let join: RoomJoin
    private let script: FakeRoomPlatform.Script
    private let context: RoomSessionContext
    private let platform: FakeRoomPlatform
    private var peer: PeerConnection?

    init(join: RoomJoin, script: FakeRoomPlatform.Script, context: RoomSessionContext, platform: FakeRoomPlatform) {
        self.join = join
        self.script = script
        self.context = context
        self.platform = platform
        capabilities = script.capabilities
    }

    private func emit(_ event: RoomEvent) {
        context.events(.room(event))
    }

    func connect() async throws(AgentError) {
        platform.record(.connect(join.role))
        if let error = script.connectError { throw error }
        guard join.role == .audience else { return }
        for participant in script.roster where !join.ignoredParticipantIDs.contains(participant.id) {
            emit(.participantJoined(id: participant.id, display: participant.display, at: Date()))
            for kind in participant.kinds {
                emit(.trackAdded(participantID: participant.id, kind: kind, codec: kind == .audio ? .opus : .vp8))
            }
        }
    }

    func publish(tracks: [TrackOffer], dataChannel: Bool) async throws(AgentError) -> RoomPublication {
        platform.record(.publish(mids: tracks.map(\.mid), dataChannel: dataChannel))
        do {
            let peer = try PeerConnection(loop: context.loop, localAddresses: ["127.0.0.1"])
            self.peer = peer
            return RoomPublication(publisherID: script.publisherID, session: try PublishSession(peer: peer, tracks: tracks), tracks: tracks)
        } catch {
            throw AgentError.mediaFailed("\(error)")
        }
    }

    func send(_ payload: DataChannelMessage.Payload) async throws(AgentError) {
        platform.record(.send(payload))
    }

    func sendStatistics() async -> [String: SendStreamStatistics] { [:] }

    nonisolated func requestKeyframe(participantID: String, kind: MediaKind) {}

    func updateCredentials(_ credentials: RoomCredentials) async {
        platform.record(.updateCredentials(join.role, credentials))
    }

    nonisolated func tokenExpiry(of credentials: RoomCredentials) -> Date? {
        credentials.token == nil ? nil : script.tokenExpiry
    }

    func teardown() async {
        platform.record(.teardown(join.role))
        peer?.close()
        peer = nil
    }
}
