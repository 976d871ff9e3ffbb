/// One frame as a WebM file stores it: one lace of a SimpleBlock or of a BlockGroup's Block.
public struct WebMFrame: Sendable, Equatable {
    /// The TrackNumber of the block.
    public var trackNumber: UInt64
    /// (cluster Timecode + block timecode) × TimecodeScale, in nanoseconds. The track's CodecDelay
    /// is not subtracted, and every lace of a block carries the block's time.
    public var timestampNanoseconds: Int64
    /// The SimpleBlock keyframe flag, or for a BlockGroup: it has no ReferenceBlock.
    public var isKeyframe: Bool
    /// Which lace of its block this is, of how many (0 of 1 when the block is not laced).
    public var laceIndex: Int
    public var laceCount: Int
    public var bytes: [UInt8]

    public init(trackNumber: UInt64, timestampNanoseconds: Int64, isKeyframe: Bool, laceIndex: Int = 0,
                laceCount: Int = 1, bytes: [UInt8]) {
        self.trackNumber = trackNumber
        self.timestampNanoseconds = timestampNanoseconds
        self.isKeyframe = isKeyframe
        self.laceIndex = laceIndex
        self.laceCount = laceCount
        self.bytes = bytes
    }
}
