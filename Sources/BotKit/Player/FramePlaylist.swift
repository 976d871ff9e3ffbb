import Agent

/// A playlist of entries played one after another, each entry a set of files played together
/// (an audio file and a video file, or one WebM's two tracks). Within an entry the frames come
/// interleaved by their timestamps, so one paced loop sends both kinds in sync. The next entry
/// starts after the longest track of the previous one; with `loop`, the list starts over after
/// its last entry, and every pass keeps one continuous timeline.
public final class FramePlaylist {
    public struct Item: Sendable {
        public var kind: MediaKind
        public var frame: EncodedMediaFrame
        /// Time from the start of playback, entries and passes included.
        public var playbackNanoseconds: Int64
        /// Which entry of the list this frame belongs to.
        public var entry: Int
        /// Which pass through the list this is (0 for the first).
        public var pass: Int
    }

    /// The gap between the end of one entry's longest track and the next entry's start.
    static let entryGapNanoseconds: Int64 = 20_000_000

    private let entries: [[EncodedFrameSource]]
    private let loop: Bool
    private var entry = 0
    private var pass = 0
    private var pending: [Int: EncodedMediaFrame] = [:]
    private var finished: Set<Int> = []
    private var entryOffset: Int64 = 0
    private var entryEnd: Int64 = 0
    private var framesThisPass = 0
    private var lastTime: [Int: Int64] = [:]
    /// Frames whose file gave a time before the previous one (a broken file); sent at the previous time.
    public private(set) var clampedFrames = 0

    /// - Parameter entries: each entry's sources play together; entries play in order.
    public init(entries: [[EncodedFrameSource]], loop: Bool) {
        self.entries = entries.filter { !$0.isEmpty }
        self.loop = loop
    }

    /// One entry: an audio and/or a video file played together.
    public convenience init(sources: [EncodedFrameSource], loop: Bool) {
        self.init(entries: [sources], loop: loop)
    }

    /// The kinds of track any entry has: the tracks a publisher must offer.
    public var kinds: Set<MediaKind> { Set(entries.joined().map(\.kind)) }

    /// The codecs of the entries' video, in entry order without repeats: one track carries them
    /// all, so a publisher refuses more than one.
    public var videoCodecs: [MediaCodec] {
        var codecs: [MediaCodec] = []
        for source in entries.joined() where source.kind == .video && !codecs.contains(source.codec) { codecs.append(source.codec) }
        return codecs
    }

    /// The next frame in time order, or nil when the list ended (without loop) or has nothing
    /// to play. A read error of a file is thrown; the caller decides whether to go on.
    public func next() throws -> Item? {
        while entry < entries.count {
            let sources = entries[entry]
            for index in sources.indices where pending[index] == nil && !finished.contains(index) {
                if let frame = try sources[index].next() { pending[index] = frame } else { finished.insert(index) }
            }
            if let (index, frame) = pending.min(by: { $0.value.timestampNanoseconds < $1.value.timestampNanoseconds }) {
                pending[index] = nil
                return item(frame, kind: sources[index].kind, source: index)
            }
            try advance()
        }
        return nil
    }

    private func item(_ frame: EncodedMediaFrame, kind: MediaKind, source: Int) -> Item {
        var time = max(0, frame.timestampNanoseconds)
        if let last = lastTime[source], time < last {
            time = last
            clampedFrames += 1
        }
        lastTime[source] = time
        entryEnd = max(entryEnd, time)
        framesThisPass += 1
        return Item(kind: kind, frame: frame, playbackNanoseconds: entryOffset + time, entry: entry, pass: pass)
    }

    /// Moves to the next entry (or the next pass), rewinding its files; past the end without
    /// loop (or after a pass that played nothing) the list is over.
    private func advance() throws {
        entryOffset += entryEnd + Self.entryGapNanoseconds
        entryEnd = 0
        finished.removeAll()
        lastTime.removeAll()
        entry += 1
        if entry == entries.count {
            guard loop, framesThisPass > 0 else { return }
            entry = 0
            pass += 1
            framesThisPass = 0
        }
        for source in entries[entry] { try source.rewind() }
    }
}
