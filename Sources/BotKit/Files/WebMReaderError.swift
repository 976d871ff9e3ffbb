import Agent

/// Why a WebM file could not be read or played. A bad file never traps: libwebm's verdict comes
/// back as one of these, with its message (which names the byte where it went wrong).
public enum WebMReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened (missing, a directory, no permission).
    case cannotOpen(path: String, message: String)
    /// Not an EBML file with DocType "webm" or "matroska" (garbage, an empty file, another format).
    case notWebM(String)
    /// The file ends inside an element: the frames before the cut were returned, the rest is gone.
    case truncated(String)
    /// An element is malformed (bad ID or size, a child overflowing its parent, absurd values).
    case corrupt(String)
    /// The file has no audio or video track to play.
    case noSupportedTracks
    /// A track uses a codec that cannot be sent as it is (only A_OPUS, V_VP8 and V_MPEG4/ISO/AVC
    /// can), named by its CodecID.
    case unsupportedCodec(String)
    /// An H.264 track's configuration record (CodecPrivate; `nanoseconds` nil) or the block at
    /// `nanoseconds` cannot be read as ISO/IEC 14496-15 says.
    case invalidH264(track: UInt64, nanoseconds: Int64?, H264Error)
    /// libwebm or the shim failed in a way no file should cause (out of memory).
    case internalError(String)
    /// More frames of one track piled up, waiting for the other track to catch up, than
    /// ``WebMSource`` allows: the file is not interleaved closely enough to stream.
    case interleavingTooLoose(track: UInt64, queuedFrames: Int, queuedBytes: Int)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let message): "cannot open \(path): \(message)"
        case .notWebM(let message): "not a WebM file: \(message)"
        case .truncated(let message): "WebM file truncated: \(message)"
        case .corrupt(let message): "corrupt WebM file: \(message)"
        case .noSupportedTracks: "the WebM file has no audio or video track"
        case .unsupportedCodec(let codec): "codec \(codec) is not supported (Opus audio, VP8 or H.264 video only)"
        case .invalidH264(let track, nil, let error): "track \(track)'s H.264 CodecPrivate cannot be read: \(error)"
        case .invalidH264(let track, let nanoseconds?, let error):
            "track \(track)'s H.264 block at \(nanoseconds) ns cannot be read: \(error)"
        case .internalError(let message): "WebM reader failed: \(message)"
        case .interleavingTooLoose(let track, let frames, let bytes):
            "track \(track) ran \(frames) frames (\(bytes) bytes) ahead of the other: the file is not interleaved for streaming"
        }
    }
}
