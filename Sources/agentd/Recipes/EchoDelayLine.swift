/// The echo recipe's timeline: each remote participant's PCM is placed `delay` after it arrived
/// and summed with the others', and a reader takes the timeline in order as its clock passes.
///
/// Positions are 48 kHz sample indexes on one clock (the relay's, from its start). A
/// participant's frames are contiguous (the remote sink delivers them on the sender's RTP
/// timeline), so after the first one each frame goes right after the previous: network jitter
/// does not tear the audio. The line re-anchors a participant at `arrival + delay` when its
/// timeline restarts, or when it drifts more than ``driftLimit`` from that, or would land on
/// samples already read.
struct EchoDelayLine {
    static let sampleRate = 48_000
    /// How far a participant's contiguous cursor may drift from its arrival time plus the delay.
    static let driftLimit: Int64 = 4_800
    /// Room past the delay for frames that arrive in bursts.
    static let slack = 2 * 48_000

    struct Counters: Sendable, Equatable {
        var samplesWritten = 0
        /// Samples that would have landed beyond the ring (a participant far ahead of the clock).
        var samplesDropped = 0
        var reanchors = 0
    }

    let delaySamples: Int64
    private var ring: [Float]
    /// The next sample the reader takes.
    private(set) var readPosition: Int64 = 0
    private var cursors: [String: Int64] = [:]
    private(set) var counters = Counters()

    /// `delayMilliseconds` is within the recipe's bound (``RecipeParser/echoDelayMilliseconds``).
    init(delayMilliseconds: Int) {
        delaySamples = Int64(delayMilliseconds) * Int64(Self.sampleRate) / 1000
        ring = [Float](repeating: 0, count: Int(delaySamples) + Self.slack)
    }

    /// Mixes `samples` (mono, 48 kHz) of `participant`, which arrived at clock position `now`.
    /// `restart` says the participant's timeline does not continue its previous frame.
    mutating func write(_ samples: [Float], from participant: String, arrivedAt now: Int64, restart: Bool) {
        let target = max(now + delaySamples, readPosition)
        var cursor = cursors[participant] ?? target
        if restart || abs(cursor - target) > Self.driftLimit || cursor < readPosition {
            if cursors[participant] != nil { counters.reanchors += 1 }
            cursor = target
        }
        let end = readPosition + Int64(ring.count)
        for sample in samples {
            if cursor >= end {
                counters.samplesDropped += 1
            } else {
                let slot = Int(cursor % Int64(ring.count))
                ring[slot] += sample
                counters.samplesWritten += 1
            }
            cursor += 1
        }
        cursors[participant] = cursor
    }

    /// A participant left: its next frame starts a new timeline.
    mutating func forget(_ participant: String) {
        cursors[participant] = nil
    }

    /// The mixed samples from the read position up to `now` (exclusive), clipped to -1 ... 1;
    /// what was read is cleared for reuse.
    mutating func read(upTo now: Int64) -> [Float] {
        guard now > readPosition else { return [] }
        let count = Int(min(now - readPosition, Int64(ring.count)))
        var output = [Float](repeating: 0, count: count)
        for index in 0..<count {
            let slot = Int((readPosition + Int64(index)) % Int64(ring.count))
            output[index] = min(1, max(-1, ring[slot]))
            ring[slot] = 0
        }
        // A reader that stalled longer than the ring skips ahead: every slot was read above.
        readPosition = now
        return output
    }
}
