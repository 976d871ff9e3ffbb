import Agent
import Foundation

/// Reads an IVF file (see ``IVFHeader`` for the file header) frame by frame, streaming from disk.
/// Each frame follows a 12-byte header:
///
///      0                   1                   2                   3
///      0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                  frame size in bytes (LE32)                   |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                  pts (LE64, in header timebase units)         |
///     |                                                               |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                  frame bytes ...                              |
///
/// Players send the frames as they are (repacketized for RTP), so the reader only finds out what a
/// packetizer and pacer need: the time from pts × timebase and whether the frame is a keyframe
/// (VP8 frame tag, RFC 6386 §9.1; VP9 uncompressed header, VP9 bitstream spec §6.2).
///
/// A bad file (garbage, truncated header or frame, absurd size field) throws an ``IVFError``.
public final class IVFReader {
    /// Larger than any real VP8/VP9 frame (a 4K keyframe at high quality is a few MB); a bigger
    /// size field means garbage, and refusing it avoids allocating gigabytes.
    public static let maxFrameSize = 64 << 20

    public let path: String
    public let header: IVFHeader
    public var codec: VPXCodec { header.codec }
    public var width: Int { header.width }
    public var height: Int { header.height }
    /// Frames returned so far.
    public private(set) var framesRead = 0

    private let handle: FileHandle
    private var offset: Int

    public init(path: String) throws(IVFError) {
        // A regular file only: a FIFO or a device would block or never end (MediaFile).
        let handle: FileHandle
        do { handle = try MediaFile.openHandle(path) } catch { throw .io(operation: "open", path: path, message: error.readerMessage) }
        self.path = path
        self.handle = handle
        do {
            let first = try Self.read(handle, count: IVFHeader.size, path: path)
            let header = try IVFHeader(parsing: first)
            if header.headerLength > IVFHeader.size {
                let extra = try Self.read(handle, count: header.headerLength - IVFHeader.size, path: path)
                guard extra.count == header.headerLength - IVFHeader.size else {
                    throw IVFError.truncatedHeader(got: IVFHeader.size + extra.count, needed: header.headerLength)
                }
            }
            self.header = header
            self.offset = header.headerLength
        } catch let error as IVFError {
            try? handle.close()
            throw error
        } catch {
            try? handle.close()
            throw .io(operation: "read", path: path, message: "\(error)")
        }
    }

    deinit {
        try? handle.close()
    }

    /// The next frame, or nil at the end of the file.
    public func nextFrame() throws(IVFError) -> EncodedMediaFrame? {
        let frameOffset = offset
        let frameHeader = try Self.read(handle, count: 12, path: path)
        if frameHeader.isEmpty { return nil }
        guard frameHeader.count == 12 else { throw .truncatedFrameHeader(offset: frameOffset, got: frameHeader.count) }
        let (size, pts) = try ByteReader.read(frameHeader) { (reader: inout ByteReader) throws(IVFError) in
            do throws(ByteRangeError) {
                return (Int(try reader.readLittleEndian(UInt32.self)), try reader.readLittleEndian(Int64.self))
            } catch {
                throw .truncatedFrameHeader(offset: frameOffset, got: frameHeader.count)
            }
        }
        guard size <= Self.maxFrameSize else { throw .frameTooLarge(offset: frameOffset, size: size) }
        guard let nanoseconds = header.nanoseconds(pts: pts) else {
            throw .timestampOutOfRange(offset: frameOffset, pts: pts)
        }
        let bytes = try Self.read(handle, count: size, path: path)
        guard bytes.count == size else { throw .truncatedFrame(offset: frameOffset, needed: size, got: bytes.count) }
        offset += 12 + size
        framesRead += 1
        return EncodedMediaFrame(bytes: bytes, timestampNanoseconds: nanoseconds,
                                 isKeyframe: Self.isKeyframe(bytes, codec: header.codec),
                                 codec: header.codec.mediaCodec)
    }

    /// Every remaining frame.
    public func readAll() throws(IVFError) -> [EncodedMediaFrame] {
        var frames: [EncodedMediaFrame] = []
        while let frame = try nextFrame() { frames.append(frame) }
        return frames
    }

    /// Whether a stored frame decodes on its own.
    ///
    /// VP8 (RFC 6386 §9.1): bit 0 of the 3-byte frame tag is 0 for a key frame.
    /// VP9 (bitstream spec §6.2, uncompressed header), read MSB first:
    ///
    ///     frame_marker(2) = 2 | profile_low_bit(1) | profile_high_bit(1) |
    ///     [reserved_zero(1) if profile == 3] | show_existing_frame(1) | frame_type(1): 0 = key
    ///
    /// A superframe's first frame starts at byte 0, so the same read works for it.
    public static func isKeyframe(_ bytes: [UInt8], codec: VPXCodec) -> Bool {
        guard let first = bytes.first else { return false }
        switch codec {
        case .vp8:
            return first & 0x01 == 0
        case .vp9:
            guard first >> 6 == 0b10 else { return false }
            let profile = Int((first >> 5) & 1) | Int((first >> 4) & 1) << 1
            var bit = 4  // next bit, counted from the MSB (0 = 0x80)
            if profile == 3 { bit += 1 }
            let showExisting = (first >> (7 - bit)) & 1
            if showExisting == 1 { return false }
            bit += 1
            return (first >> (7 - bit)) & 1 == 0
        }
    }

    /// Up to `count` bytes; fewer only at the end of the file.
    private static func read(_ handle: FileHandle, count: Int, path: String) throws(IVFError) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes: [UInt8] = []
        do {
            while bytes.count < count {
                guard let chunk = try handle.read(upToCount: count - bytes.count), !chunk.isEmpty else { break }
                bytes += chunk
            }
        } catch {
            throw .io(operation: "read", path: path, message: "\(error)")
        }
        return bytes
    }
}
