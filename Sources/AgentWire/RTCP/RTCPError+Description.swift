/// How a malformed RTCP packet (RFC 3550 §6) reads to a person.
extension RTCPError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .truncated(let needed, let got): "RTCP packet truncated: \(got) of \(needed) bytes"
        case .badVersion(let version): "RTCP version \(version), not 2"
        case .lengthPastEnd(let declared, let available): "RTCP length \(declared) bytes, \(available) there"
        case .badPadding(let padding): "bad RTCP padding \(padding)"
        case .malformed(let type, let reason): "malformed RTCP packet type \(type): \(reason)"
        }
    }
}
