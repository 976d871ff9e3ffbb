import Agent
import CWebMParser
import Glibc

/// Reads a WebM (or Matroska) file frame by frame with libwebm's incremental parser, through the
/// CWebMParser shim. The file is streamed: `init` parses only the headers (EBML header, Info,
/// Tracks) up to the first cluster, and each ``nextFrame()`` parses only as far as the next frame,
/// so memory holds one frame at a time whatever the file's size (``bytesConsumed`` shows how far
/// the parser got).
///
/// Frames come in file order, for every track, with SimpleBlocks and BlockGroups alike and laced
/// blocks split into their frames. A bad file throws a ``WebMReaderError``: an empty or non-WebM
/// file at `init`; a file cut short returns every frame before the cut and then throws
/// ``WebMReaderError/truncated(_:)``; a malformed element throws ``WebMReaderError/corrupt(_:)``.
/// After an error, every later call throws it again. A live-style file (Segment and Clusters of
/// unknown size) may end after any complete block; that is its normal end, not a truncation.
public final class WebMReader {
    /// The largest frame, and the largest string or binary header element (CodecPrivate,
    /// CodecID...), the reader takes: larger ones are ``WebMReaderError/corrupt(_:)``, refused
    /// before anything is allocated. An element or frame declaring more bytes than the file
    /// holds is ``WebMReaderError/truncated(_:)`` (or ``WebMReaderError/notWebM(_:)`` in the
    /// EBML header), also before allocating.
    public static let maxFrameSize = Int(clamping: agent_webm_max_frame_size())
    public static let maxElementSize = Int(clamping: agent_webm_max_element_size())

    public let path: String
    public let tracks: [WebMTrackInfo]
    /// Frames returned so far.
    public private(set) var framesRead = 0

    private var reader: OpaquePointer?
    private var failure: WebMReaderError?

    public init(path: String) throws(WebMReaderError) {
        self.path = path
        var opened: OpaquePointer?
        var message = [CChar](repeating: 0, count: 512)
        // A regular file only: a FIFO or a device would block or never end (MediaFile). The C
        // reader takes a path, so it opens our checked descriptor again through /proc.
        let descriptor: Int32
        do {
            descriptor = try MediaFile.openForReading(path)
        } catch {
            switch error {
            case .notRegularFile(_, let kind): throw .cannotOpen(path: path, message: "it is \(kind), not a regular file")
            case .cannotOpen(_, let reason): throw .cannotOpen(path: path, message: reason)
            }
        }
        defer { Glibc.close(descriptor) }
        let status = agent_webm_reader_open(MediaFile.reopenPath(descriptor), &opened, &message, message.count)
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard status == AGENT_WEBM_OK, let opened else {
            throw Self.error(status, message: text, path: path)
        }
        var tracks: [WebMTrackInfo] = []
        for index in 0..<agent_webm_reader_track_count(opened) {
            var track = agent_webm_track()
            guard agent_webm_reader_track_at(opened, index, &track) else { continue }
            // The shim holds CodecPrivate to the limit; checked again here, before the copy.
            guard track.codec_private_size <= Self.maxElementSize else {
                agent_webm_reader_close(opened)
                throw .corrupt("track \(track.number) has \(track.codec_private_size) bytes of CodecPrivate")
            }
            tracks.append(WebMTrackInfo(track))
        }
        reader = opened
        self.tracks = tracks
    }

    deinit {
        agent_webm_reader_close(reader)
    }

    /// How many bytes of the file the parser has consumed: right after the last frame returned.
    public var bytesConsumed: UInt64 { agent_webm_reader_bytes_consumed(reader) }

    /// The track with this TrackNumber.
    public func track(number: UInt64) -> WebMTrackInfo? { tracks.first { $0.number == number } }

    /// The next frame of any track, or nil at the end of the file.
    public func nextFrame() throws(WebMReaderError) -> WebMFrame? {
        if let failure { throw failure }
        guard let reader else { return nil }
        var frame = agent_webm_frame()
        let status = agent_webm_reader_next_frame(reader, &frame)
        if status == AGENT_WEBM_END_OF_STREAM { return nil }
        guard status == AGENT_WEBM_OK else {
            let error = Self.error(status, message: String(cString: agent_webm_reader_message(reader)), path: path)
            failure = error
            throw error
        }
        // The shim holds frames to the limit; checked again here, before the copy.
        guard frame.size <= Self.maxFrameSize else {
            let error = WebMReaderError.corrupt("a frame of \(frame.size) bytes")
            failure = error
            throw error
        }
        framesRead += 1
        let bytes = frame.size == 0 ? [] : [UInt8](UnsafeBufferPointer(start: frame.bytes, count: frame.size))
        return WebMFrame(trackNumber: frame.track_number, timestampNanoseconds: frame.timestamp_ns,
                         isKeyframe: frame.is_keyframe, laceIndex: Int(frame.lace_index),
                         laceCount: Int(frame.lace_count), bytes: bytes)
    }

    /// Every remaining frame.
    public func readAll() throws(WebMReaderError) -> [WebMFrame] {
        var frames: [WebMFrame] = []
        while let frame = try nextFrame() { frames.append(frame) }
        return frames
    }

    /// Closes the file; later ``nextFrame()`` calls return nil. Idempotent.
    public func close() {
        agent_webm_reader_close(reader)
        reader = nil
    }

    private static func error(_ status: agent_webm_status, message: String, path: String) -> WebMReaderError {
        switch status {
        case AGENT_WEBM_CANNOT_OPEN: .cannotOpen(path: path, message: message)
        case AGENT_WEBM_NOT_WEBM: .notWebM(message)
        case AGENT_WEBM_TRUNCATED: .truncated(message)
        case AGENT_WEBM_CORRUPT: .corrupt(message)
        default: .internalError(message.isEmpty ? "status \(status.rawValue)" : message)
        }
    }
}

extension WebMTrackInfo {
    init(_ track: agent_webm_track) {
        let type: TrackType = switch track.type {
        case AGENT_WEBM_TRACK_VIDEO: .video
        case AGENT_WEBM_TRACK_AUDIO: .audio
        default: .other
        }
        self.init(number: track.number, type: type,
                  codecID: track.codec_id.map { String(cString: $0) } ?? "",
                  width: Int(clamping: track.pixel_width), height: Int(clamping: track.pixel_height),
                  channels: Int(clamping: track.channels), samplingFrequency: track.sampling_frequency,
                  codecDelayNanoseconds: Int64(clamping: track.codec_delay_ns),
                  defaultDurationNanoseconds: Int64(clamping: track.default_duration_ns),
                  codecPrivate: track.codec_private.map { [UInt8](UnsafeBufferPointer(start: $0, count: track.codec_private_size)) } ?? [])
    }
}
