/// How a bad VP8 payload descriptor (RFC 7741 §4.2) reads to a person.
extension VP8Error: CustomStringConvertible {
    public var description: String {
        switch self {
        case .truncatedDescriptor: "the payload descriptor is truncated"
        case .emptyPayload: "the payload is empty"
        }
    }
}
