/// Why a payload could not be depacketized. The packet is dropped and counted, never trapped on.
public enum DepacketizerError: Error, Equatable, Sendable {
    case emptyPayload
    case vp8(VP8Error)
}
