/// How an SDP that cannot be parsed reads to a person.
extension SDPError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: "the SDP is empty"
        case .malformedLine(let number, let line): "SDP line \(number) is malformed: \(line.prefix(80))"
        case .missingVersion: "the SDP has no v= line"
        case .badMediaLine(let number, let line): "SDP line \(number) is not a valid m= line: \(line.prefix(80))"
        case .badAttribute(let name, let value): "SDP attribute a=\(name) has a bad value: \(value.prefix(80))"
        }
    }
}
