import Foundation
import Testing

@testable import Agent
@testable import AgentCore

/// The roster rules of ``ChannelEventMapper``: users before their tracks, tracks gone before
/// their user, a final disconnect takes everyone away first, and nothing after it.
@Suite struct ChannelEventMapperTests {
    let at = Date(timeIntervalSince1970: 0)

    /// A short name per event, so whole sequences compare at a glance.
    static func names(_ events: [ChannelEvent]) -> [String] {
        events.map { event in
            switch event {
            case .connectionStateChanged(let state): "state \(state)"
            case .userJoined(let user): "joined \(user.id)"
            case .trackSubscribed(let user, let track): "subscribed \(user.id) \(track.kind.rawValue)"
            case .trackUnsubscribed(let user, let track): "unsubscribed \(user.id) \(track.kind.rawValue)"
            case .userLeft(let user): "left \(user.id)"
            case .dataReceived(let from, _): "data \(from?.id ?? "-")"
            case .tokenWillExpire: "token"
            case .statsReport: "stats"
            case .eventsLost(let count): "lost \(count)"
            case .activeSpeakersChanged(let users): "speakers \(users.map(\.id))"
            }
        }
    }

    @Test func joinTracksLeaveInOrder() {
        var mapper = ChannelEventMapper()
        var out: [ChannelEvent] = []
        out += mapper.map(.participantJoined(id: "a", display: "Alice", at: at))
        out += mapper.map(.trackAdded(participantID: "a", kind: .audio, codec: .opus))
        out += mapper.map(.trackAdded(participantID: "a", kind: .video, codec: .vp8))
        out += mapper.map(.participantJoined(id: "a", display: "Alice", at: at))  // repeated roster entry
        out += mapper.map(.trackRemoved(participantID: "a", kind: .video))
        out += mapper.map(.participantLeft(id: "a", at: at))
        #expect(Self.names(out) == ["joined a", "subscribed a audio", "subscribed a video", "unsubscribed a video", "unsubscribed a audio", "left a"])
        #expect(mapper.presentUsers.isEmpty)
    }

    @Test func reannouncedTrackKeepsItsObjectACodecChangeReplacesIt() throws {
        var mapper = ChannelEventMapper()
        _ = mapper.map(.participantJoined(id: "a", display: "A", at: at))
        _ = mapper.map(.trackAdded(participantID: "a", kind: .video, codec: .vp8))
        let first = try #require(mapper.track(of: "a", kind: .video))
        #expect(mapper.map(.trackAdded(participantID: "a", kind: .video, codec: .vp8)).isEmpty)
        #expect(mapper.track(of: "a", kind: .video) === first)
        let changed = mapper.map(.trackAdded(participantID: "a", kind: .video, codec: .vp9))
        #expect(Self.names(changed) == ["unsubscribed a video", "subscribed a video"])
        #expect(mapper.track(of: "a", kind: .video) !== first && mapper.track(of: "a", kind: .video)?.codec == .vp9)
    }

    @Test func trackOfUnknownUserAnnouncesTheUserFirst() {
        var mapper = ChannelEventMapper()
        let out = mapper.map(.trackAdded(participantID: "b", kind: .audio, codec: .opus))
        #expect(Self.names(out) == ["joined b", "subscribed b audio"])
        #expect(mapper.presentUsers == [User(id: "b", display: "b")])
    }

    @Test func sameDisplayIsTwoUsers() {
        var mapper = ChannelEventMapper()
        _ = mapper.map(.participantJoined(id: "1", display: "same", at: at))
        _ = mapper.map(.participantJoined(id: "2", display: "same", at: at))
        #expect(mapper.presentUsers.map(\.id) == ["1", "2"])
    }

    @Test func finalDisconnectTakesEveryoneAwayThenNothingMore() {
        var mapper = ChannelEventMapper()
        var out = mapper.transition(to: .connecting) + mapper.transition(to: .connected) + mapper.transition(to: .connected)
        out += mapper.map(.participantJoined(id: "a", display: "A", at: at))
        out += mapper.map(.trackAdded(participantID: "a", kind: .audio, codec: .opus))
        out += mapper.map(.participantJoined(id: "b", display: "B", at: at))
        out += mapper.map(.connectionState(.reconnecting(attempt: 1), at: at))
        out += mapper.map(.connectionState(.connected, at: at))
        out += mapper.transition(to: .disconnected(reason: .left))
        out += mapper.map(.participantJoined(id: "c", display: "C", at: at))
        out += mapper.transition(to: .connected)
        #expect(Self.names(out) == [
            "state connecting", "state connected", "joined a", "subscribed a audio", "joined b",
            "state reconnecting(attempt: 1)", "state connected", "left b", "unsubscribed a audio", "left a",
            "state disconnected(reason: AgentCore.DisconnectReason.left)",
        ])
    }

    @Test func dataNamesKnownSenders() {
        var mapper = ChannelEventMapper()
        _ = mapper.map(.participantJoined(id: "a", display: "A", at: at))
        let known = mapper.map(.data(participantID: "a", payload: .text("hi"), at: at))
        let anonymous = mapper.map(.data(participantID: nil, payload: .text("hi"), at: at))
        #expect(Self.names(known + anonymous) == ["data a", "data -"])
        guard case .dataReceived(let from, _) = known.first else { return }
        #expect(from?.display == "A")
    }
}
