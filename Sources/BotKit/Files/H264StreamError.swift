/// Why an H.264 elementary stream (`.h264`) could not be read. A bad file never traps.
public enum H264StreamError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No start code in the first ``H264StreamReader/maxAccessUnitBytes``: not an Annex B stream.
    case notAnnexB(path: String)
    /// An access unit (or a NAL unit) grew past ``H264StreamReader/maxAccessUnitBytes``.
    case accessUnitTooLarge(offset: Int, limit: Int)
    /// The stream holds no slice of a picture.
    case noPictures(path: String)
    /// The frame rate the stream is played at is not 1...240.
    case invalidFrameRate(Int)
    /// The file system refused an operation on `path`.
    case io(operation: String, path: String, message: String)

    public var description: String {
        switch self {
        case .notAnnexB(let path): "\(path) is not an H.264 Annex B stream (no start code)"
        case .accessUnitTooLarge(let offset, let limit): "an access unit at byte \(offset) is larger than \(limit) bytes"
        case .noPictures(let path): "\(path) holds no H.264 picture"
        case .invalidFrameRate(let rate): "frame rate \(rate) is not 1...240"
        case .io(let operation, let path, let message): "\(operation) \(path): \(message)"
        }
    }
}
