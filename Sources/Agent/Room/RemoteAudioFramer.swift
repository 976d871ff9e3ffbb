/// Cuts a stream of PCM at the output rate into frames of exactly one length, and dates each on
/// the RTP timeline.
///
/// Input comes in whatever pieces decoding and resampling give (a 20 ms packet, 60 ms of
/// concealment, a resampler block a few samples short). Frame `k` of a segment starts at
/// `segmentStart + k × ticksPerFrame` in 48 kHz ticks: computed, never summed, so the dates stay
/// exact at 44.1 kHz too. Alongside the samples it remembers which stretches of the input timeline
/// were fill (concealment or silence) so each frame can say whether it holds any.
struct RemoteAudioFramer: Sendable {
    struct Frame: Sendable {
        var samples: [Float]
        var rtpTimestamp: Int64
        var containsFill: Bool
        var isDiscontinuity: Bool
    }

    let channels: Int
    /// Per channel, at the output rate.
    let samplesPerFrame: Int
    let ticksPerFrame: Int64

    /// RTP time (48 kHz) of the segment's first sample.
    private(set) var segmentStart: Int64 = 0
    private var framesOut: Int64 = 0
    /// 48 kHz ticks of input noted since the segment began.
    private var ticksIn: Int64 = 0
    /// Fill stretches of the input, in ticks from the segment start; pruned as frames pass them.
    private var fills: [Range<Int64>] = []
    /// Interleaved output-rate samples not yet cut into a frame.
    private var pending: [Float] = []
    private var discontinuityPending = true

    init(format: RemoteAudioFormat) {
        channels = format.channels
        samplesPerFrame = format.samplesPerChannel
        ticksPerFrame = format.ticksPerFrame
        pending.reserveCapacity(4 * samplesPerFrame * channels)
    }

    /// Starts a new segment at `rtpTimestamp`, dropping any partial frame of the old one.
    mutating func begin(at rtpTimestamp: Int64) {
        segmentStart = rtpTimestamp
        framesOut = 0
        ticksIn = 0
        fills.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        discontinuityPending = true
    }

    /// Records that `ticks` of 48 kHz input were placed, decoded or (`isFill`) made up.
    mutating func noteInput(ticks: Int64, isFill: Bool) {
        guard ticks > 0 else { return }
        if isFill {
            if let last = fills.last, last.upperBound == ticksIn {
                fills[fills.count - 1] = last.lowerBound..<(ticksIn + ticks)
            } else {
                fills.append(ticksIn..<(ticksIn + ticks))
            }
        }
        ticksIn += ticks
    }

    /// Adds interleaved samples at the output rate.
    mutating func append(_ samples: [Float]) {
        pending.append(contentsOf: samples)
    }

    /// Pads the partial frame with silence so it can be taken; nothing if none is pending.
    mutating func padPartialFrame() {
        let frameLength = samplesPerFrame * channels
        let partial = pending.count % frameLength
        guard partial > 0 else { return }
        pending.append(contentsOf: repeatElement(0, count: frameLength - partial))
    }

    /// The next whole frame, or nil until enough samples are in.
    mutating func nextFrame() -> Frame? {
        let frameLength = samplesPerFrame * channels
        guard pending.count >= frameLength else { return nil }
        let samples = Array(pending[0..<frameLength])
        pending.removeFirst(frameLength)
        let start = framesOut * ticksPerFrame
        let end = start + ticksPerFrame
        fills.removeAll { $0.upperBound <= start }
        let containsFill = fills.contains { $0.lowerBound < end }
        let frame = Frame(samples: samples, rtpTimestamp: segmentStart + start, containsFill: containsFill,
                          isDiscontinuity: discontinuityPending)
        framesOut += 1
        discontinuityPending = false
        return frame
    }
}
