/// How an ICE candidate line that cannot be parsed reads to a person.
extension ICECandidateError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .missingPrefix: "the candidate does not start with candidate:"
        case .missingField(let field): "the candidate has no \(field)"
        case .invalidFoundation(let text): "bad foundation '\(text.prefix(40))'"
        case .invalidComponent(let text): "bad component '\(text.prefix(40))'"
        case .invalidTransport(let text): "bad transport '\(text.prefix(40))'"
        case .invalidPriority(let text): "bad priority '\(text.prefix(40))'"
        case .invalidAddress(let text): "bad address '\(text.prefix(40))'"
        case .invalidPort(let text): "bad port '\(text.prefix(40))'"
        case .invalidType(let text): "bad type '\(text.prefix(40))'"
        case .unexpectedToken(let token, let expected): "'\(token.prefix(40))' where \(expected) was expected"
        case .missingValue(let name): "\(name) has no value"
        }
    }
}
