/// Why an IVF file could not be read or written. A bad file never traps: each way it can be wrong
/// has a case here, with the offset where it went wrong.
public enum IVFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is shorter than its header: the 32-byte file header, or the longer length its
    /// header length field declares (`needed`).
    case truncatedHeader(got: Int, needed: Int = IVFHeader.size)
    /// The first four bytes are not "DKIF".
    case badSignature([UInt8])
    /// Only version 0 exists.
    case unsupportedVersion(UInt16)
    /// The header length field is smaller than 32.
    case badHeaderLength(Int)
    /// The fourcc names a codec other than VP8 or VP9.
    case unsupportedFourCC(String)
    /// The timebase has a zero numerator or denominator, so pts cannot become time.
    case badTimebase(numerator: UInt32, denominator: UInt32)
    /// A 12-byte frame header at `offset` was cut short.
    case truncatedFrameHeader(offset: Int, got: Int)
    /// The frame at `offset` announces `needed` bytes but only `got` follow.
    case truncatedFrame(offset: Int, needed: Int, got: Int)
    /// The frame at `offset` announces more bytes than any real frame has (a garbage size field).
    case frameTooLarge(offset: Int, size: Int)
    /// The frame at `offset` has a pts whose time does not fit 64-bit nanoseconds.
    case timestampOutOfRange(offset: Int, pts: Int64)
    /// The file system refused an operation on `path`.
    case io(operation: String, path: String, message: String)
    /// The writer was used after ``IVFWriter/close()``.
    case closed(path: String)
    /// The writer refused its arguments (a size or timebase IVF cannot store).
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .truncatedHeader(let got, let needed): "IVF header truncated: \(got) of \(needed) bytes"
        case .badSignature(let bytes): "not an IVF file: signature \(bytes)"
        case .unsupportedVersion(let version): "unsupported IVF version \(version)"
        case .badHeaderLength(let length): "IVF header length \(length) is below 32"
        case .unsupportedFourCC(let fourcc): "unsupported IVF codec \(fourcc)"
        case .badTimebase(let numerator, let denominator): "IVF timebase \(numerator)/\(denominator) is unusable"
        case .truncatedFrameHeader(let offset, let got): "IVF frame header at \(offset) truncated: \(got) of 12 bytes"
        case .truncatedFrame(let offset, let needed, let got): "IVF frame at \(offset) truncated: \(got) of \(needed) bytes"
        case .frameTooLarge(let offset, let size): "IVF frame at \(offset) claims \(size) bytes"
        case .timestampOutOfRange(let offset, let pts): "IVF frame at \(offset) has pts \(pts) out of range"
        case .io(let operation, let path, let message): "\(operation) \(path) failed: \(message)"
        case .closed(let path): "\(path) is closed"
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        }
    }
}
