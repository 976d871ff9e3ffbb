import AgentMedia

/// Why a payload could not be depacketized. The packet is dropped and counted, never trapped on.
public enum DepacketizerError: Error, Equatable, Sendable {
    case emptyPayload
    case vp8(VP8Error)
    case vp9(VP9Error)
    case h264(H264PayloadError)
    /// The depacketizer named bytes outside the payload (a bug in it, refused rather than trapped on).
    case rangeOutsidePayload
}
