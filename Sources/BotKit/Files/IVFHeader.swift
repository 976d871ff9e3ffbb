import Agent

/// The 32-byte file header of an IVF file, the simple container libvpx's tools write for VP8/VP9.
/// All fields are little-endian:
///
///      0                   1                   2                   3
///      0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///   0 |                    signature "DKIF"                           |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///   4 |        version (0)            |     header length (32)        |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///   8 |                 fourcc "VP80" or "VP90"                       |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  12 |          width                |          height               |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  16 |               timebase denominator (rate)                     |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  20 |               timebase numerator (scale)                      |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  24 |                    frame count                                |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  28 |                    unused                                     |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///
/// A frame's pts counts `numerator / denominator` seconds. The frame count is only a hint: writers
/// that cannot seek back leave it at 0.
public struct IVFHeader: Sendable, Equatable {
    public static let size = 32

    public var codec: VPXCodec
    public var width: Int
    public var height: Int
    public var timebaseNumerator: UInt32
    public var timebaseDenominator: UInt32
    public var frameCount: UInt32
    /// Bytes from the start of the file to the first frame header (32 in every file seen so far).
    public var headerLength: Int

    public init(codec: VPXCodec, width: Int, height: Int, timebaseNumerator: UInt32 = 1,
                timebaseDenominator: UInt32 = 90_000, frameCount: UInt32 = 0, headerLength: Int = IVFHeader.size) {
        self.codec = codec
        self.width = width
        self.height = height
        self.timebaseNumerator = timebaseNumerator
        self.timebaseDenominator = timebaseDenominator
        self.frameCount = frameCount
        self.headerLength = headerLength
    }

    /// The fourcc IVF stores for `codec`.
    public static func fourCC(_ codec: VPXCodec) -> [UInt8] {
        switch codec {
        case .vp8: Array("VP80".utf8)
        case .vp9: Array("VP90".utf8)
        }
    }

    /// Parses the first 32 bytes of `bytes`.
    public init(parsing bytes: [UInt8]) throws(IVFError) {
        guard bytes.count >= Self.size else { throw .truncatedHeader(got: bytes.count) }
        let fields = try ByteReader.read(bytes) { (reader: inout ByteReader) throws(IVFError) in
            do throws(ByteRangeError) {
                return (signature: Array(try reader.readBytes(4)), version: try reader.readLittleEndian(UInt16.self),
                        headerLength: try reader.readLittleEndian(UInt16.self), fourcc: Array(try reader.readBytes(4)),
                        width: try reader.readLittleEndian(UInt16.self), height: try reader.readLittleEndian(UInt16.self),
                        denominator: try reader.readLittleEndian(UInt32.self), numerator: try reader.readLittleEndian(UInt32.self),
                        frameCount: try reader.readLittleEndian(UInt32.self))
            } catch {
                throw .truncatedHeader(got: bytes.count)
            }
        }
        guard fields.signature.elementsEqual("DKIF".utf8) else { throw .badSignature(fields.signature) }
        guard fields.version == 0 else { throw .unsupportedVersion(fields.version) }
        let headerLength = Int(fields.headerLength)
        guard headerLength >= Self.size else { throw .badHeaderLength(headerLength) }
        guard let codec = VPXCodec.allCases.first(where: { Self.fourCC($0) == fields.fourcc }) else {
            throw .unsupportedFourCC(String(decoding: fields.fourcc, as: UTF8.self))
        }
        let (numerator, denominator) = (fields.numerator, fields.denominator)
        guard numerator > 0, denominator > 0 else { throw .badTimebase(numerator: numerator, denominator: denominator) }
        self.init(codec: codec, width: Int(fields.width), height: Int(fields.height), timebaseNumerator: numerator,
                  timebaseDenominator: denominator, frameCount: fields.frameCount, headerLength: headerLength)
    }

    /// The 32 header bytes. Width and height must fit 16 bits (checked by ``IVFWriter``).
    public func encoded() -> [UInt8] {
        var bytes = Array("DKIF".utf8)
        bytes.appendLittleEndian(UInt16(0))
        bytes.appendLittleEndian(UInt16(Self.size))
        bytes += Self.fourCC(codec)
        bytes.appendLittleEndian(UInt16(truncatingIfNeeded: width))
        bytes.appendLittleEndian(UInt16(truncatingIfNeeded: height))
        bytes.appendLittleEndian(timebaseDenominator)
        bytes.appendLittleEndian(timebaseNumerator)
        bytes.appendLittleEndian(frameCount)
        bytes.appendLittleEndian(UInt32(0))
        return bytes
    }

    /// Nanoseconds for a pts, or nil when it does not fit Int64.
    public func nanoseconds(pts: Int64) -> Int64? {
        let value = Int128(pts) * Int128(timebaseNumerator) * 1_000_000_000 / Int128(timebaseDenominator)
        return Int64(exactly: value)
    }
}
