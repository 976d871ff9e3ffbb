import Agent
import Synchronization

/// Keeps one Opus packet of an ``AudioTrack`` encoded ahead on a worker lane, so the pacer on
/// the transport loop only takes a finished packet and never runs the encoder itself: the loop's
/// thread also runs ICE, DTLS, SRTP and SCTP for every connection on it.
///
/// Taking a packet asks the lane for the next one, so a packet holds the PCM queued 20 ms before
/// it is due: one frame of latency, for `clear()` (barge-in) as well. A packet not ready when due
/// (the lane was busy or full) is counted in ``late`` and the pacer tries again on its next tick:
/// the audio goes out a tick late rather than never, and no PCM is lost (it stays queued in the
/// track until encoded).
final class AudioPrefetch: Sendable {
    struct State {
        var ready: AudioTrack.Packet?
        var encoding = false
        var late = 0
        var delivered = false
        var stopped = false
    }

    let track: AudioTrack
    private let lane: WorkerLane
    private let state = Mutex(State())

    init(track: AudioTrack, lane: WorkerLane = WorkerLanes.shared.nextLane()) {
        self.track = track
        self.lane = lane
        if state.withLock({ Self.claimEncode(&$0) }) { encodeNext() }
    }

    /// Packets that were not encoded yet when the pacer wanted them (after the first, which the
    /// pacer may ask for before the lane had a moment).
    var late: Int { state.withLock { $0.late } }

    /// The packet encoded ahead, if it is ready; either way the next one is asked for.
    func take() -> AudioTrack.Packet? {
        let (packet, encode) = state.withLock { state -> (AudioTrack.Packet?, Bool) in
            let packet = state.ready
            if packet == nil {
                if state.delivered { state.late += 1 }
            } else {
                state.ready = nil
                state.delivered = true
            }
            return (packet, Self.claimEncode(&state))
        }
        if encode { encodeNext() }
        return packet
    }

    /// No more encoding: a packet being made is kept, nothing new is asked for. Idempotent.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Whether to queue an encode: not when one is ready, running, or queued (so the lane holds
    /// at most one item of this track), nor after a stop. Marks it started.
    private static func claimEncode(_ state: inout State) -> Bool {
        guard state.ready == nil, !state.encoding, !state.stopped else { return false }
        state.encoding = true
        return true
    }

    /// Queues the encode ``claimEncode(_:)`` allowed. A full lane refuses (it counts the
    /// refusal); the next take asks again.
    private func encodeNext() {
        let queued = lane.tryEnqueue { [self] in
            let packet = track.nextPacket()
            state.withLock { state in
                state.ready = packet
                state.encoding = false
            }
        }
        if !queued { state.withLock { $0.encoding = false } }
    }
}
