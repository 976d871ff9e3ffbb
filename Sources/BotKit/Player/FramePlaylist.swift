import Agent

/// Interleaves the frames of an audio and a video file by their timestamps, so one paced loop
/// can send both and they stay in sync; with `loop`, a file that ends starts over, shifted by
/// the longer file's length so both keep one timeline.
public final class FramePlaylist {
    public struct Item {
        public var kind: TrackKind
        public var frame: EncodedMediaFrame
        /// Time from the start of playback, loops included.
        public var playbackNanoseconds: Int64
        /// Which pass through the files this is (0 for the first).
        public var pass: Int
    }

    private let sources: [EncodedFrameSource]
    private let loop: Bool
    private var pending: [Int: EncodedMediaFrame] = [:]
    private var finished: Set<Int> = []
    private var pass = 0
    private var passOffset: Int64 = 0
    private var passEnd: Int64 = 0
    /// Frames whose file gave a time before the previous one (a broken file); sent at the previous time.
    public private(set) var clampedFrames = 0
    private var lastTime: [Int: Int64] = [:]

    public init(sources: [EncodedFrameSource], loop: Bool) {
        self.sources = sources
        self.loop = loop
    }

    /// The next frame in time order across the files, or nil when every file ended (without loop).
    public func next() throws -> Item? {
        for index in sources.indices where pending[index] == nil && !finished.contains(index) {
            if let frame = try sources[index].next() { pending[index] = frame } else { finished.insert(index) }
        }
        if pending.isEmpty {
            guard loop, passEnd > 0 else { return nil }
            // Every file ended: start them all again after the longest one.
            for source in sources { try source.rewind() }
            finished.removeAll()
            lastTime.removeAll()
            pass += 1
            passOffset += passEnd + 20_000_000
            passEnd = 0
            return try next()
        }
        let (index, frame) = pending.min { $0.value.timestampNanoseconds < $1.value.timestampNanoseconds }!
        pending[index] = nil
        var time = max(0, frame.timestampNanoseconds)
        if let last = lastTime[index], time < last {
            time = last
            clampedFrames += 1
        }
        lastTime[index] = time
        passEnd = max(passEnd, time)
        return Item(kind: sources[index].kind, frame: frame, playbackNanoseconds: passOffset + time, pass: pass)
    }
}
