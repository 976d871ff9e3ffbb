/// A recursive-descent reader of JSON text (RFC 8259) into ``JSONValue``, one pass over the
/// UTF-8 bytes: it looks at the next byte to know what comes, so every byte is read once and
/// the cost is linear in the text whatever its shape.
///
/// `JSONDecoder` driven through `Decodable` cannot do that: it can only ask "is this a Bool? an
/// Int? …" and each wrong guess costs an error whose price grows with the depth, which made a
/// 15 KB body of nested arrays take 16 s. Nesting is bounded (`maxDepth`), and so is the size.
///
/// It reads what `JSONDecoder` read, so nothing that parsed before fails now: a trailing comma
/// in an array or object and a leading byte-order mark are tolerated, a repeated object key
/// keeps its first value, and a number with a fraction or exponent whose value is a whole
/// Int64 (`1.0`, `1e2`) is an integer. One difference: JSONDecoder checked a string only when
/// something decoded it, so a malformed string under a repeated key passed; it is refused here.
struct JSONParser {
    /// Deep enough for any message Janus or a client sends (they nest fewer than ten levels).
    static let defaultMaxDepth = 64
    /// The largest text read by default: the WebSocket client's message limit.
    static let defaultMaxBytes = 4 << 20
    /// The recursion uses a few hundred bytes of stack per level; past this a thread's stack
    /// could run out, so a caller's larger `maxDepth` is cut to it.
    static let depthCeiling = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var offset = 0

    /// `bytes` must be valid UTF-8 (it comes from a String, or was validated).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, maxBytes: Int) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes: bytes.count, limit: maxBytes) }
        var parser = JSONParser(bytes: bytes, maxDepth: min(max(maxDepth, 0), depthCeiling))
        // A UTF-8 byte-order mark (EF BB BF) before the text.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.offset = 3 }
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw .trailingData(offset: parser.offset) }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    // MARK: - Values

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard offset < bytes.count else { throw .unexpectedEnd }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case let byte: throw .unexpectedByte(byte, offset: offset)
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth, offset: offset) }
        offset += 1  // [
        var elements: [JSONValue] = []
        while true {
            skipWhitespace()
            guard offset < bytes.count else { throw .unexpectedEnd }
            if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            elements.append(try value(depth: depth))
            guard try separator(closing: UInt8(ascii: "]")) else {
                return .array(elements)
            }
        }
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth, offset: offset) }
        offset += 1  // {
        var members: [String: JSONValue] = [:]
        while true {
            skipWhitespace()
            guard offset < bytes.count else { throw .unexpectedEnd }
            if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            guard bytes[offset] == UInt8(ascii: "\"") else { throw .unexpectedByte(bytes[offset], offset: offset) }
            let key = try string()
            skipWhitespace()
            guard offset < bytes.count else { throw .unexpectedEnd }
            guard bytes[offset] == UInt8(ascii: ":") else { throw .unexpectedByte(bytes[offset], offset: offset) }
            offset += 1
            let member = try value(depth: depth)
            if members[key] == nil { members[key] = member }
            guard try separator(closing: UInt8(ascii: "}")) else {
                return .object(members)
            }
        }
    }

    /// After an element: true at a comma (another element, or a tolerated trailing comma, may
    /// follow), false once the closing bracket is consumed.
    private mutating func separator(closing: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw .unexpectedEnd }
        switch bytes[offset] {
        case UInt8(ascii: ","):
            offset += 1
            return true
        case closing:
            offset += 1
            return false
        case let byte:
            throw .unexpectedByte(byte, offset: offset)
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - offset >= count else { throw .unexpectedEnd }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for index in 0..<count where bytes[offset + index] != expected[index] {
            throw .unexpectedByte(bytes[offset + index], offset: offset + index)
        }
        offset += count
    }

    // MARK: - Numbers

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// Integers and Doubles as JSONDecoder told them apart when asked for an Int64 first: a plain
    /// literal is an integer when it fits Int64 exactly. One with a fraction or an exponent is read
    /// as a Double, and is an integer when that Double is whole and fits Int64: below 2^53 the
    /// Double's value (`1.0`, `15e2`, `1e-400` is 0, `1.0000000000000001` is 1), from 2^53 up the
    /// literal's own digits without their fraction, since a Double is too coarse there
    /// (`-64555555555555550.0` is not ...552; `12345678901234567.5` is ...567), unless they are
    /// more than 64 bits of significant digits. Anything else is a Double.
    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = offset
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw .invalidNumber(offset: start) }
        let integerStart = offset
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < bytes.count, isDigit(bytes[offset]) { throw .invalidNumber(offset: start) }
        } else {
            skipDigits()
        }
        let integerDigits = integerStart..<offset
        var fractionDigits = offset..<offset
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            let fractionStart = offset
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw .invalidNumber(offset: start) }
            skipDigits()
            fractionDigits = fractionStart..<offset
        }
        var exponent = 0
        var hasExponent = false
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            hasExponent = true
            offset += 1
            var exponentNegative = false
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                exponentNegative = bytes[offset] == UInt8(ascii: "-")
                offset += 1
            }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw .invalidNumber(offset: start) }
            while offset < bytes.count, isDigit(bytes[offset]) {
                // Far past any Int64 or Double either way; held there so it cannot overflow.
                exponent = min(exponent * 10 + Int(bytes[offset] - UInt8(ascii: "0")), 1_000_000)
                offset += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let plain = fractionDigits.isEmpty && !hasExponent
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        if plain, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw .numberOutOfRange(offset: start) }
        guard !plain, let whole = Int64(exactly: double) else { return .double(double) }
        if double.magnitude < 0x1p53 { return .integer(whole) }
        // JSONDecoder's digits-without-fraction path never gave Int64.min.
        guard let integer = truncatedValue(negative: negative, integerDigits: integerDigits, fractionDigits: fractionDigits, exponent: exponent),
            integer != .min
        else { return .double(double) }
        return .integer(integer)
    }

    /// `integer.fraction × 10^exponent` without its fraction (truncated toward zero), exactly,
    /// when that fits Int64; else nil. Also nil, as in JSONDecoder (its Decimal holds them in
    /// 64 bits there), when the significant digits (no leading or trailing zeros) exceed 2^64.
    private func truncatedValue(negative: Bool, integerDigits: Range<Int>, fractionDigits: Range<Int>, exponent: Int) -> Int64? {
        var digits = Array(bytes[integerDigits]) + Array(bytes[fractionDigits])
        let significant = digits.drop { $0 == UInt8(ascii: "0") }.reversed().drop { $0 == UInt8(ascii: "0") }
        var significand: UInt64 = 0
        for digit in significant.reversed() {
            let (times10, overflow) = significand.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            significand = sum
        }
        var scale = exponent - fractionDigits.count
        if scale < 0 {
            digits.removeLast(min(-scale, digits.count))
            scale = 0
        }
        guard let first = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }) else { return 0 }
        digits.removeFirst(first)
        guard digits.count + scale <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for digit in digits + Array(repeating: UInt8(ascii: "0"), count: scale) {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        return Int64(exactly: magnitude)
    }

    private mutating func skipDigits() {
        while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: - Strings

    /// A string from its opening quote (RFC 8259 §7). Runs without escapes are copied as they
    /// are: the input is valid UTF-8 already.
    private mutating func string() throws(JSONParseError) -> String {
        offset += 1  // "
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw .controlCharacterInString(offset: offset) }
            offset += 1
        }
        guard offset < bytes.count else { throw .unexpectedEnd }
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &decoded)
            case 0..<0x20:
                throw .controlCharacterInString(offset: offset)
            default:
                decoded.append(byte)
                offset += 1
            }
        }
        throw .unexpectedEnd
    }

    /// One escape from its backslash, appended as UTF-8.
    private mutating func escape(into decoded: inout [UInt8]) throws(JSONParseError) {
        let start = offset
        offset += 1
        guard offset < bytes.count else { throw .unexpectedEnd }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hexQuad(escapeAt: start))
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low one (§7, UTF-16 pairs).
                guard bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw .invalidEscape(offset: start)
                }
                offset += 2
                let low = UInt32(try hexQuad(escapeAt: start))
                guard (0xDC00..<0xE000).contains(low) else { throw .invalidEscape(offset: start) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .invalidEscape(offset: start) }
            UTF8.encode(unicode) { decoded.append($0) }
        default:
            throw .invalidEscape(offset: start)
        }
    }

    private mutating func hexQuad(escapeAt start: Int) throws(JSONParseError) -> UInt16 {
        guard bytes.count - offset >= 4 else { throw .unexpectedEnd }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidEscape(offset: start)
            }
            value = value << 4 | UInt16(digit)
            offset += 1
        }
        return value
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }
}
