/// Why ``PNGEncoder`` could not write a picture.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The picture is larger than ``PNGEncoder/maxPixels``.
    case tooLarge(width: Int, height: Int)
    /// zlib refused (its return code: Z_MEM_ERROR, Z_BUF_ERROR...).
    case compressionFailed(code: Int32)

    public var description: String {
        switch self {
        case .tooLarge(let width, let height): "a \(width)x\(height) picture is too large for a PNG here"
        case .compressionFailed(let code): "zlib could not compress the picture (code \(code))"
        }
    }
}
