/// Why a session description could not be read. Never trapped on: SDP comes off the wire.
public enum SDPError: Error, Equatable, Sendable {
    case empty
    case malformedLine(number: Int, line: String)
    case missingVersion
    case badMediaLine(number: Int, line: String)
    case badAttribute(name: String, value: String)
}
