import Foundation
import Synchronization
import Testing

@testable import Agent

/// The channel's event path without sockets: what arrives while connecting waits for
/// `connected`, frames reach the raw sink only, an unsubscribed track's sinks end, and the
/// stream ends with the final `disconnected`.
@Suite struct ChannelCoreTests {
    final class RawEvents: Sendable {
        let count = Atomic<Int>(0)
    }

    static func frame(_ id: String) -> RemoteFrame {
        RemoteFrame(
            participantID: id, kind: .audio, codec: .opus, bytes: [0xF8, 0xFF, 0xFE], isKeyframe: true, rtpTimestamp: 0, clockRate: 48_000,
            wallTimeNanoseconds: 0, mappedBySenderReport: false)
    }

    @Test func heldUntilConnectedThenInOrderAndEndedByDisconnect() async throws {
        let (events, continuation) = AsyncStream<ChannelEvent>.makeStream()
        let raw = RawEvents()
        let core = ChannelCore(room: "r", statsInterval: .seconds(1), rawSink: { _ in raw.count.add(1, ordering: .relaxed) }, continuation: continuation)
        let at = Date()
        core.transition(to: .connecting)
        core.receive(.participantJoined(id: "a", display: "A", at: at))  // during the join
        core.receive(.trackAdded(participantID: "a", kind: .audio, codec: .opus))
        core.transition(to: .connected)
        core.receive(.frame(Self.frame("a")))
        var iterator = events.makeAsyncIterator()
        var received: [ChannelEvent] = []
        for _ in 0..<4 { received += [await iterator.next()].compactMap { $0 } }
        #expect(ChannelEventMapperTests.names(received) == ["state connecting", "state connected", "joined a", "subscribed a audio"])
        #expect(raw.count.load(ordering: .relaxed) == 3, "the raw sink saw the roster, the track and the frame")

        guard case .trackSubscribed(_, let track) = received[3] else { return }
        track.deliver(Self.frame("a"))
        #expect(track.counters.framesForwarded == 1)
        core.receive(.trackRemoved(participantID: "a", kind: .audio))
        track.deliver(Self.frame("a"))
        #expect(track.counters.framesForwarded == 1, "a finished track forwards nothing")

        core.receive(.connectionState(.disconnected(reason: .roomDestroyed), at: at))
        core.receive(.participantJoined(id: "b", display: "B", at: at))
        var rest: [ChannelEvent] = []
        while let event = await iterator.next() { rest.append(event) }
        #expect(ChannelEventMapperTests.names(rest) == ["unsubscribed a audio", "left a", "state disconnected(reason: Agent.DisconnectReason.roomDestroyed)"])
        #expect(core.isFinished)
    }
}
