/// Why a JSON text could not be read (``JSONValue/init(parsing:maxDepth:maxBytes:)``). Offsets
/// count UTF-8 bytes from the start of the text. Never trapped on: the text comes off the wire,
/// from the API and from files.
public enum JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is longer than the parser was allowed to read.
    case tooLarge(bytes: Int, limit: Int)
    /// Arrays and objects nest deeper than `limit`; `offset` is the bracket that went too deep.
    case tooDeep(limit: Int, offset: Int)
    /// The text ends inside a value (or holds none).
    case unexpectedEnd
    /// A byte that cannot start or continue a value here.
    case unexpectedByte(UInt8, offset: Int)
    /// A number that breaks the RFC 8259 §6 grammar (`01`, `1.`, `-`, `1e`).
    case invalidNumber(offset: Int)
    /// A number too large for a Double (`1e400`).
    case numberOutOfRange(offset: Int)
    /// A backslash escape that RFC 8259 §7 does not define, or a lone UTF-16 surrogate.
    case invalidEscape(offset: Int)
    /// A raw control character (below U+0020) inside a string.
    case controlCharacterInString(offset: Int)
    /// Byte input that is not UTF-8.
    case invalidUTF8
    /// Something other than whitespace follows the value.
    case trailingData(offset: Int)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit): "the JSON text has \(bytes) bytes, more than the \(limit) allowed"
        case .tooDeep(let limit, let offset): "arrays and objects nest deeper than \(limit) at byte \(offset)"
        case .unexpectedEnd: "the JSON text ends inside a value"
        case .unexpectedByte(let byte, let offset): "unexpected byte 0x\(String(byte, radix: 16)) at byte \(offset)"
        case .invalidNumber(let offset): "malformed number at byte \(offset)"
        case .numberOutOfRange(let offset): "number out of range at byte \(offset)"
        case .invalidEscape(let offset): "invalid string escape at byte \(offset)"
        case .controlCharacterInString(let offset): "unescaped control character in a string at byte \(offset)"
        case .invalidUTF8: "the JSON text is not UTF-8"
        case .trailingData(let offset): "unexpected text after the JSON value at byte \(offset)"
        }
    }
}
