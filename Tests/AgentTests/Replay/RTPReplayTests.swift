import Synchronization
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentWire

/// The replay's own clockwork, on captures made here: a silence of weeks between packets is
/// skipped, not ticked through, and the packets on either side still come out as frames.
@Suite struct RTPReplayTests {
    static let route = CapturedRoute(SubscriptionRouter.Route(mid: "0", participantID: "p", kind: .audio, codec: .opus, clockRate: 48_000, ssrcs: [7]))

    static func session(offsets: [UInt32]) throws -> CapturedSession {
        var description = CaptureDescription(startedAtNanoseconds: 1_767_225_600_000_000_000)
        description.routeChanges = [.init(atMilliseconds: 0, routes: [route])]
        description.participants = [.init(id: "p", display: "alice")]
        let records = try offsets.enumerated().map { index, offset in
            RTPDumpRecord(offsetMilliseconds: offset, isRTCP: false,
                          bytes: try RTPTestPacket.make(sequence: UInt16(index), timestamp: UInt32(offset) &* 48, payloadType: 111, ssrc: 7,
                                                        payload: [0xFC, 0xFF, 0xFE]))
        }
        return CapturedSession(description: description, records: records)
    }

    @Test("30 days of silence between two bursts: skipped, and both bursts' frames come out", .timeLimit(.minutes(1)))
    func longSilenceIsSkipped() async throws {
        let burst = (0..<25).map { UInt32($0 * 20) }
        let later = UInt32(30 * 86_400_000)
        let session = try Self.session(offsets: burst + burst.map { later + $0 })
        let events = LockedEvents()
        let counters = try await RTPReplay(session: session) { events.append($0) }.run()
        #expect(counters.rtpDelivered == 50)
        #expect(counters.frames >= 48, "\(counters)")
        let joined = events.all.filter { if case .participantJoined = $0 { true } else { false } }
        #expect(joined.count == 1)
    }

    /// Events from the replay's loop, read after the run.
    final class LockedEvents: Sendable {
        private let events = Mutex<[RoomEvent]>([])
        func append(_ event: RoomEvent) { events.withLock { $0.append(event) } }
        var all: [RoomEvent] { events.withLock { $0 } }
    }
}
