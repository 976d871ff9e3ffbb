/// How a bad VP9 payload descriptor (RFC 9628 §4.2) reads to a person.
extension VP9Error: CustomStringConvertible {
    public var description: String {
        switch self {
        case .truncatedDescriptor: "the payload descriptor is truncated"
        case .tooManyReferences: "the descriptor lists more than 3 references"
        case .emptyPayload: "the payload is empty"
        }
    }
}
