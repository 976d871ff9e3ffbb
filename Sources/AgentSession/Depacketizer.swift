/// What the codec-agnostic ``JitterBuffer`` needs to know about one RTP payload to assemble
/// frames: where the codec bytes are, whether the payload starts a frame and whether that frame
/// is a keyframe. The end of a frame is mostly not asked: for video it is the RTP marker bit
/// (RFC 3550 §5.1) or a change of RTP timestamp, which the buffer sees itself. Audio uses the
/// marker for talkspurt starts instead, so an audio depacketizer says `endsFrame` itself.
public protocol Depacketizer: Sendable {
    func fragment(of payload: UnsafeRawBufferPointer) throws(DepacketizerError) -> DepacketizedFragment
}

/// One payload's contribution to its frame.
public struct DepacketizedFragment: Equatable, Sendable {
    /// Where the codec bytes lie in the payload (descriptors such as VP8's are skipped).
    public var range: Range<Int>
    public var startsFrame: Bool
    /// Meaningful only when `startsFrame`.
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
