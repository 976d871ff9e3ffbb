/// SCTP Payload Protocol Identifiers used by WebRTC data channels (RFC 8831 §8, RFC 8832 §8.1).
///
/// The PPID travels in every DATA chunk and tells the receiver how to read the message: DCEP
/// control, UTF-8 string or binary. SCTP cannot carry an empty message, so empty strings and
/// binaries are sent as one byte with the "empty" PPIDs (the byte is ignored).
public struct SCTPPayloadProtocol: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Data Channel Establishment Protocol (RFC 8832).
    public static let dcep = SCTPPayloadProtocol(rawValue: 50)
    public static let string = SCTPPayloadProtocol(rawValue: 51)
    /// Deprecated partial binary (still seen from old peers).
    public static let binaryPartial = SCTPPayloadProtocol(rawValue: 52)
    public static let binary = SCTPPayloadProtocol(rawValue: 53)
    /// Deprecated partial string.
    public static let stringPartial = SCTPPayloadProtocol(rawValue: 54)
    public static let stringEmpty = SCTPPayloadProtocol(rawValue: 56)
    public static let binaryEmpty = SCTPPayloadProtocol(rawValue: 57)

    public var description: String {
        switch self {
        case .dcep: "DCEP(50)"
        case .string: "string(51)"
        case .binaryPartial: "binary-partial(52)"
        case .binary: "binary(53)"
        case .stringPartial: "string-partial(54)"
        case .stringEmpty: "string-empty(56)"
        case .binaryEmpty: "binary-empty(57)"
        default: "ppid(\(rawValue))"
        }
    }
}
