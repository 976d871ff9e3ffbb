/// What the codec-agnostic ``JitterBuffer`` needs to know about one RTP payload to assemble
/// frames: where the codec bytes are, whether the payload starts a frame and whether that frame
/// is a keyframe. The end of a frame is mostly not asked: for video it is the RTP marker bit
/// (RFC 3550 §5.1) or a change of RTP timestamp, which the buffer sees itself. Audio uses the
/// marker for talkspurt starts instead, so an audio depacketizer says `endsFrame` itself.
public protocol Depacketizer: Sendable {
    func fragment(of payload: UnsafeRawBufferPointer) throws(DepacketizerError) -> DepacketizedFragment

    /// The bytes `payload` adds to its frame, given the ``fragment(of:)`` it was found to be
    /// (whose range the buffer has checked against the payload). Most codecs' frames are their
    /// payloads' bytes end to end, and the default copies `fragment.range`; H.264 rewrites them
    /// (start codes instead of STAP-A sizes, a rebuilt header for a FU-A start).
    func frameBytes(of payload: UnsafeRawBufferPointer, fragment: DepacketizedFragment) throws(DepacketizerError) -> [UInt8]

    /// Whether a payload that starts a frame also ends the frame before it when both have the
    /// same RTP timestamp. True (the default) for VP8 and VP9, whose start bits mark only a new
    /// frame; false for H.264, where several payloads of one access unit (SPS, PPS, SEI, each
    /// slice) can each look like a start, so only the marker or a new timestamp ends it.
    var frameStartEndsPreviousFrame: Bool { get }
}

extension Depacketizer {
    public func frameBytes(of payload: UnsafeRawBufferPointer, fragment: DepacketizedFragment) -> [UInt8] {
        // The buffer refuses a range outside the payload before it asks; clamped all the same,
        // so no caller can make this trap.
        Array(UnsafeRawBufferPointer(rebasing: payload[fragment.range.clamped(to: 0..<payload.count)]))
    }

    public var frameStartEndsPreviousFrame: Bool { true }
}

/// One payload's contribution to its frame.
public struct DepacketizedFragment: Equatable, Sendable {
    /// Where the codec bytes lie in the payload (descriptors such as VP8's are skipped); what
    /// the frame takes from them is ``Depacketizer/frameBytes(of:fragment:)``, by default these
    /// bytes as they are.
    public var range: Range<Int>
    public var startsFrame: Bool
    /// The frame is a keyframe when any of its payloads says so. VP8 and VP9 say it on the
    /// payload that starts the frame; H.264 on each payload that carries an IDR slice, which
    /// may come after payloads of SPS, PPS or SEI.
    public var isKeyframe: Bool
    /// True when the codec knows this payload ends its frame (one-packet audio frames); video
    /// leaves it false and relies on the marker bit.
    public var endsFrame: Bool

    public init(range: Range<Int>, startsFrame: Bool, isKeyframe: Bool, endsFrame: Bool = false) {
        self.range = range
        self.startsFrame = startsFrame
        self.isKeyframe = isKeyframe
        self.endsFrame = endsFrame
    }
}
