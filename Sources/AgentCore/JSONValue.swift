import Foundation

/// A JSON document as a value, for Janus messages whose shape depends on the plugin.
///
/// Parsing never traps and costs time linear in the text: anything `JSONDecoder` accepts within
/// the depth and size limits becomes a value, anything else a ``JSONParseError``. Integers are
/// kept exact as `Int64` (Janus session and handle ids are 53-bit safe integers); other numbers
/// become `Double`.
public enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The nesting and size limits `init(parsing:)` applies unless told otherwise.
    public static let defaultMaxDepth = JSONParser.defaultMaxDepth
    public static let defaultMaxBytes = JSONParser.defaultMaxBytes

    /// Parses JSON text. Arrays and objects may nest `maxDepth` deep (at most 512); a text of
    /// more than `maxBytes` UTF-8 bytes is refused before it is read.
    public init(parsing text: String, maxDepth: Int = defaultMaxDepth, maxBytes: Int = defaultMaxBytes) throws(JSONParseError) {
        // A native String's UTF-8 is contiguous already; a bridged one is copied once.
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(JSONParseError) in try JSONParser.parse(bytes, maxDepth: maxDepth, maxBytes: maxBytes) }
        }
        self = try result.get()
    }

    /// Parses JSON bytes (a request body, a file), which must be UTF-8.
    public init(parsing bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth, maxBytes: Int = defaultMaxBytes) throws(JSONParseError) {
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes: bytes.count, limit: maxBytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        try self.init(parsing: text, maxDepth: maxDepth, maxBytes: maxBytes)
    }

    /// Compact JSON text with sorted keys (stable for tests and logs).
    public func serialized() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to a JSON value. Non-finite doubles
        // (impossible from parsing, possible from code) are written as null.
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// An integer, also from a double with no fraction (some servers write ids as 1.0).
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .double(let value) where value.rounded() == value && abs(value) < 9.0e15: return Int64(value)
        default: return nil
        }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// A string, or an integer written as a string: VideoRoom ids are strings with
    /// `string_ids = true` and integers otherwise.
    public var idString: String? {
        switch self {
        case .string(let value): return value
        case .integer(let value): return String(value)
        default: return nil
        }
    }
}

/// For a JSONValue inside a Codable type. Reading a whole document, prefer ``init(parsing:maxDepth:maxBytes:)``:
/// a `Decoder` cannot say what comes next, so this tries each type in turn, and each wrong guess
/// costs an error. Containers are tried first so nested arrays and objects cost few wrong guesses,
/// and nesting past ``defaultMaxDepth`` is refused, which bounds what a hostile document costs.
extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // The coding path holds one entry per enclosing array or object: at the limit only a
        // scalar may follow, as in the parser.
        let mayNest = decoder.codingPath.count < Self.defaultMaxDepth
        if container.decodeNil() {
            self = .null
        } else if mayNest, let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if mayNest, let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: mayNest ? "not a JSON value" : "arrays and objects nest deeper than \(Self.defaultMaxDepth)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value):
            if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
    public init(floatLiteral value: Double) { self = .double(value) }
}
