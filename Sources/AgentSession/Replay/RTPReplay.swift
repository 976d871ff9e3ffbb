import AgentCore
import AgentTransport
import AgentWire
import Foundation

/// Plays a ``CapturedSession`` into a receive path as if it were arriving now: a
/// ``SubscriptionRouter`` of its own (jitter buffers, NACK and PLI timers, depacketizers, sender
/// report mapping) on a loop of its own, under a ``ManualMediaClock`` that the replay moves from
/// one delivery to the next, with the router's timers run every `tickInterval` of capture time
/// in between. So a replay at full speed sees the same timeline as one in real time, and the
/// same seed gives the same frames.
///
/// The events are those of a live room: each participant of the capture joins at its start,
/// each route's track is added when its negotiation comes, frames follow, and everyone leaves
/// after the last packet and `tail` (time for the jitter buffers to give up on what was lost).
public final class RTPReplay: Sendable {
    public struct Counters: Equatable, Sendable {
        public var rtpDelivered = 0
        public var senderReports = 0
        public var lost = 0
        public var reordered = 0
        public var duplicated = 0
        /// Sequence numbers the receive path asked for again (NACK), and the packets resent.
        public var nacked = 0
        public var retransmitted = 0
        /// PLIs and FIRs the receive path sent (unanswered: a capture has no encoder).
        public var keyframeRequests = 0
        public var frames = 0
        /// Records that are neither RTP nor a sender report the replay could parse.
        public var unparsable = 0
        /// Records an SRTP context refused (a benchmark's protected capture).
        public var unprotectFailures = 0
        public var unroutable = 0
        public var refused = 0
    }

    public let session: CapturedSession
    public let impairments: ReplayImpairments
    public let tickInterval: Duration
    public let tail: Duration
    private let srtp: SRTPContext?
    private let sink: @Sendable (RoomEvent) -> Void

    /// - Parameter srtp: an inbound context whose key protected the session's records (RTP and
    ///   sender reports), each unprotected on delivery as a PeerConnection would: a benchmark of
    ///   the whole receive path. Nil: the records are plain, as a capture holds them.
    public init(session: CapturedSession, impairments: ReplayImpairments = ReplayImpairments(), tickInterval: Duration = .milliseconds(20),
                tail: Duration = .seconds(2), srtp: SRTPContext? = nil, sink: @escaping @Sendable (RoomEvent) -> Void) {
        self.session = session
        self.srtp = srtp
        self.impairments = impairments
        self.tickInterval = max(.milliseconds(1), tickInterval)
        self.tail = max(.zero, tail)
        self.sink = sink
    }

    /// How long the replay runs in capture time: the capture and the tail, or the latest a
    /// delivery can come (jitter, a reordered packet's hold-back) if that is longer. Impairments
    /// within the tail leave it alone, so a damaged replay's files end where a clean one's do.
    public var duration: Duration {
        .milliseconds(session.durationMilliseconds) + max(tail, impairments.jitter + .milliseconds(100))
    }

    /// Replays the whole capture. At full speed (`realTime` false) it runs as fast as the receive
    /// path goes; in real time each second of capture takes a second. After each second of capture
    /// time it awaits `pause` (a recorder catching up with its queue), and it stops early when
    /// `isCancelled` says so.
    public func run(realTime: Bool = false, pause: @escaping @Sendable () async -> Void = {},
                    isCancelled: @escaping @Sendable () -> Bool = { false }) async throws -> Counters {
        let loop = EventLoop(name: "agentd.replay")
        defer { loop.shutdown() }
        let clock = ManualMediaClock(monotonicNanoseconds: 1_000_000_000, wallNanoseconds: session.description.startedAtNanoseconds)
        let frames = FrameCount()
        let sink = self.sink
        let router = SubscriptionRouter(loop: loop, clock: clock, localSSRC: 0x5EED_0001) { event in
            if case .frame = event { frames.value += 1 }
            sink(event)
        }
        let player = ReplayPlayer(session: session, impairments: impairments, srtp: srtp, router: router, clock: clock,
                                  tickNanoseconds: tickInterval.totalNanoseconds, sink: sink)
        let end = duration.totalNanoseconds
        let began = ContinuousClock.now
        try await loop.submit { player.begin() }
        var until: Int64 = 0
        // Capture time skipped over in silences (a real-time replay does not wait through them).
        var skipped: Int64 = 0
        while until < end && !isCancelled() {
            // A second at a time; a silence longer than the player idles through is jumped.
            let next = try await loop.submit { player.nextEventNanoseconds } ?? end
            let jump = next - ReplayPlayer.idleNanoseconds(tick: tickInterval.totalNanoseconds)
            if jump > until + 1_000_000_000 {
                skipped += jump - until
                until = jump
            }
            until = min(end, until + 1_000_000_000)
            let step = until
            try await loop.submit { player.play(until: step) }
            await pause()
            if realTime {
                let due = began + .nanoseconds(step - skipped)
                if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
            }
        }
        return try await loop.submit {
            var counters = player.end()
            counters.frames = frames.value
            return counters
        }
    }

    /// Frames the router handed on; touched only on the replay's loop.
    private final class FrameCount: @unchecked Sendable {
        var value = 0
    }
}
