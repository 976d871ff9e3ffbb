/// How a malformed RTP packet (RFC 3550) reads to a person.
extension RTPError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .truncated(let needed, let got): "RTP packet truncated: \(got) of \(needed) bytes"
        case .badVersion(let version): "RTP version \(version), not 2"
        case .paddingPastEnd(let padding, let available): "RTP padding of \(padding) bytes, only \(available) there"
        case .extensionPastEnd(let needed, let got): "RTP header extension needs \(needed) bytes, \(got) there"
        case .badExtensionElement(let offset): "bad RTP header extension element at \(offset)"
        case .bufferTooSmall(let needed, let capacity): "the buffer holds \(capacity) bytes, \(needed) needed"
        }
    }
}
