/// How a malformed DCEP message (RFC 8832) reads to a person.
extension DCEPError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .truncated(let needed, let got): "DCEP message truncated: \(got) of \(needed) bytes"
        case .unexpectedMessageType(let type): "unexpected DCEP message type \(type)"
        case .unknownChannelType(let type): "unknown data channel type \(type)"
        case .trailingBytes(let count): "\(count) bytes after the DCEP message"
        case .invalidUTF8(let field): "the DCEP \(field) is not UTF-8"
        case .fieldTooLong(let field, let length): "the DCEP \(field) is \(length) bytes, too long"
        }
    }
}
