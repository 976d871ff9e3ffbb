/// Why an SDP `candidate:` attribute could not be parsed (RFC 5245 §15.1 grammar).
public enum ICECandidateError: Error, Equatable, Sendable {
    /// The text does not start with `candidate:` (optionally `a=candidate:`).
    case missingPrefix
    /// The attribute ended before this mandatory field.
    case missingField(String)
    case invalidFoundation(String)
    case invalidComponent(String)
    case invalidTransport(String)
    case invalidPriority(String)
    case invalidAddress(String)
    case invalidPort(String)
    case invalidType(String)
    case unexpectedToken(String, expected: String)
    /// An extension or `raddr`/`rport` name without its value.
    case missingValue(for: String)
}
