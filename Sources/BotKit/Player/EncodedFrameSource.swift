import Agent

/// Something that yields a file's stored frames in order, and can start over (for `--loop`).
public protocol EncodedFrameSource: AnyObject {
    var kind: MediaKind { get }
    /// The codec of the frames, which the publisher offers for the track.
    var codec: MediaCodec { get }
    func next() throws -> EncodedMediaFrame?
    /// Opens the file again from its start.
    func rewind() throws
}

/// Ogg/Opus pass-through: packets as stored, timed by granule positions.
public final class OggOpusSource: EncodedFrameSource {
    public let path: String
    private var reader: OggOpusReader
    public let kind = MediaKind.audio
    public let codec = MediaCodec.opus

    public init(path: String) throws {
        self.path = path
        reader = try OggOpusReader(path: path)
    }

    public func next() throws -> EncodedMediaFrame? { try reader.nextFrame() }
    public func rewind() throws { reader = try OggOpusReader(path: path) }
}

/// IVF pass-through (VP8): frames as stored, timed by the file's pts and timebase.
public final class IVFSource: EncodedFrameSource {
    public let path: String
    private var reader: IVFReader
    public let kind = MediaKind.video
    public var codec: MediaCodec { reader.codec.mediaCodec }
    public var width: Int { reader.width }
    public var height: Int { reader.height }

    public init(path: String) throws {
        self.path = path
        reader = try IVFReader(path: path)
        guard reader.codec.mediaCodec.canPacketize else { throw IVFError.invalidArgument("only VP8 IVF files can be played so far") }
    }

    public func next() throws -> EncodedMediaFrame? { try reader.nextFrame() }
    public func rewind() throws { reader = try IVFReader(path: path) }
}

/// H.264 elementary stream pass-through (`.h264`): access units as stored, timed by a frame
/// rate, since the stream holds no times (``H264StreamReader``).
public final class H264FileSource: EncodedFrameSource {
    public let path: String
    public let framesPerSecond: Int
    private var reader: H264StreamReader
    public let kind = MediaKind.video
    public let codec = MediaCodec.h264

    public init(path: String, framesPerSecond: Int = 30) throws {
        self.path = path
        self.framesPerSecond = framesPerSecond
        reader = try H264StreamReader(path: path, framesPerSecond: framesPerSecond)
    }

    public func next() throws -> EncodedMediaFrame? { try reader.nextFrame() }
    public func rewind() throws { reader = try H264StreamReader(path: path, framesPerSecond: framesPerSecond) }
}
