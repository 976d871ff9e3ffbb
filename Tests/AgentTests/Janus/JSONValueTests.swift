import Foundation
import Testing

@testable import Agent
@testable import AgentCore

@Suite("JSONValue")
struct JSONValueTests {
    /// What `JSONDecoder` made of each text before JSONValue had its own parser (recorded from
    /// the old `init(from:)`): the parser must read the same, quirks included. The fuzz fixture
    /// `-64555555555555550.0` came out ...552 when whole values went through a Double.
    @Test("reads what JSONDecoder read", arguments: [
        ("0", JSONValue.integer(0)), ("-0", .integer(0)), ("1.0", .integer(1)), ("1e2", .integer(100)),
        ("1E+2", .integer(100)), ("-1.5", .double(-1.5)), ("9223372036854775807", .integer(.max)),
        ("9223372036854775808", .double(9.223372036854775808e18)), ("-9223372036854775808", .integer(.min)),
        ("-9223372036854775809", .double(-9.223372036854775808e18)), ("0.1", .double(0.1)),
        ("123456789012345678901234567890", .double(1.2345678901234568e29)), ("1.5e3", .integer(1500)),
        ("100e-2", .integer(1)), ("-0.0", .integer(0)), ("1E-400", .integer(0)),
        (#""a\u0000b""#, .string("a\u{0}b")), (#""\ud83d\ude00""#, .string("😀")), (#""\u00e9""#, .string("é")),
        (#""\/""#, .string("/")), (#""é""#, .string("é")), ("[\"\u{7F}\"]", .array([.string("\u{7F}")])),
        (#"{"a":1,"a":2}"#, .object(["a": .integer(1)])), (" [1 , 2 ] ", .array([.integer(1), .integer(2)])),
        ("[1,]", .array([.integer(1)])), (#"{"a":1,}"#, .object(["a": .integer(1)])), ("true", .bool(true)),
        ("\u{FEFF}[1]", .array([.integer(1)])), ("[1]\n", .array([.integer(1)])), ("\t\r\n 1", .integer(1)),
        ("null", .null), ("-64555555555555550.0", .integer(-64_555_555_555_555_550)), ("12.50e1", .integer(125)),
        ("0e99999999999999999999", .integer(0)), ("-9223372036854775808.0", .double(-9.223372036854775808e18)),
        ("9223372036854775807e0", .double(9.223372036854775808e18)), ("9223372036854775808.0", .double(9.223372036854775808e18)),
        ("12345678901234567.5", .integer(12_345_678_901_234_567)), ("1.0000000000000001", .integer(1)),
        ("9007199254740993.0", .integer(9_007_199_254_740_993)), ("-9223372036854775807.0", .integer(-9_223_372_036_854_775_807)),
        ("9223372036854775295.0", .integer(9_223_372_036_854_775_295)), ("9223372036854775296.0", .double(9.223372036854775808e18)),
        ("0.1e1", .integer(1)), ("0.5", .double(0.5)), ("-64555555555555551.0011", .double(-6.455555555555555e16)),
        ("18446744073709551.615", .integer(18_446_744_073_709_551)), ("18446744073709551.616", .double(1.844674407370955e16)),
        ("12345678901234567.00000000", .integer(12_345_678_901_234_567)), ("1234567890123456700110e-5", .double(1.2345678901234568e16)), (#"{"x":[false,{"y":"z"}],"n":null}"#, .object(["x": .array([.bool(false), .object(["y": .string("z")])]), "n": .null])),
    ] as [(String, JSONValue)])
    func compatible(text: String, expected: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == expected)
        #expect(try JSONValue(parsing: Array(text.utf8)) == expected)
    }

    @Test("refuses what JSONDecoder refused, with a typed error", arguments: [
        ("1e400", JSONParseError.numberOutOfRange(offset: 0)), ("-1e400", .numberOutOfRange(offset: 0)),
        ("01", .invalidNumber(offset: 0)), ("1.", .invalidNumber(offset: 0)), ("-", .invalidNumber(offset: 0)),
        (".5", .unexpectedByte(0x2E, offset: 0)), ("+1", .unexpectedByte(0x2B, offset: 0)), ("1e", .invalidNumber(offset: 0)),
        ("0x10", .trailingData(offset: 1)), (#""\ud83d""#, .invalidEscape(offset: 1)), (#""\ude00x""#, .invalidEscape(offset: 1)),
        ("\"tab\tin\"", .controlCharacterInString(offset: 4)), (#""\x""#, .invalidEscape(offset: 1)), ("tru", .unexpectedEnd),
        ("nul", .unexpectedEnd), ("[1]x", .trailingData(offset: 3)), ("\u{00A0}1", .unexpectedByte(0xC2, offset: 0)),
        ("{1:2}", .unexpectedByte(0x31, offset: 1)), ("\"\u{1}\"", .controlCharacterInString(offset: 1)), ("", .unexpectedEnd),
        ("[", .unexpectedEnd), (#"{"a""#, .unexpectedEnd), (#"{"a" 1}"#, .unexpectedByte(0x31, offset: 5)), ("[1 2]", .unexpectedByte(0x32, offset: 3)),
        ("[,]", .unexpectedByte(0x2C, offset: 1)), (#""abc"#, .unexpectedEnd), (#""a\"#, .unexpectedEnd), (#""\u12"#, .unexpectedEnd),
    ] as [(String, JSONParseError)])
    func refuses(text: String, expected: JSONParseError) {
        #expect(throws: expected) { try JSONValue(parsing: text) }
    }

    @Test func bytesMustBeUTF8() {
        #expect(throws: JSONParseError.invalidUTF8) { try JSONValue(parsing: [0x22, 0xFF, 0x22]) }
    }

    static func nested(_ depth: Int, open: String = "[", close: String = "]") -> String {
        String(repeating: open, count: depth) + String(repeating: close, count: depth)
    }

    @Test("nesting is limited to maxDepth (64 by default), arrays and objects alike")
    func depthLimit() throws {
        #expect(try JSONValue(parsing: Self.nested(64)).arrayValue?.count == 1)
        #expect(throws: JSONParseError.tooDeep(limit: 64, offset: 64)) { try JSONValue(parsing: Self.nested(65)) }
        let objects = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(throws: JSONParseError.tooDeep(limit: 64, offset: 320)) { try JSONValue(parsing: objects) }
        #expect(try JSONValue(parsing: Self.nested(3), maxDepth: 3) == [[[]]])
        #expect(throws: JSONParseError.tooDeep(limit: 2, offset: 2)) { try JSONValue(parsing: Self.nested(3), maxDepth: 2) }
        // Scalars do not count as a level.
        #expect(try JSONValue(parsing: "7", maxDepth: 0) == 7)
    }

    @Test("a text longer than maxBytes is refused before it is read")
    func sizeLimit() throws {
        #expect(JSONValue.defaultMaxBytes == 4 << 20)
        #expect(throws: JSONParseError.tooLarge(bytes: 9, limit: 8)) { try JSONValue(parsing: "[1,2,3,4]", maxBytes: 8) }
        #expect(throws: JSONParseError.tooLarge(bytes: 9, limit: 8)) { try JSONValue(parsing: Array("[1,2,3,4]".utf8), maxBytes: 8) }
        #expect(try JSONValue(parsing: "[1,2,3]", maxBytes: 7) == [1, 2, 3])
        let big = "\"" + String(repeating: "a", count: JSONValue.defaultMaxBytes) + "\""
        #expect(throws: JSONParseError.tooLarge(bytes: big.utf8.count, limit: JSONValue.defaultMaxBytes)) { try JSONValue(parsing: big) }
    }

    /// The fastest of a few runs, so one descheduled run does not decide.
    static func fastest(_ runs: Int = 5, _ body: () -> Void) -> Duration {
        (0..<runs).map { _ in ContinuousClock().measure(body) }.min() ?? .zero
    }

    /// The bug: decoding tried every type at every level, and 500 nested arrays (1 KB) cost about
    /// a second; a 15 KB body took 16 s. Parsing is now linear: a deep nest costs no more than a
    /// flat document of the same size, and one deeper than the limit is refused at the limit.
    @Test("cost is linear in the size, not the depth")
    func linearCost() throws {
        let deep = Self.nested(500)
        let flat = "[" + String(repeating: "0,", count: 498) + " 0]"
        #expect(deep.utf8.count == 1000 && flat.utf8.count == 1000)
        #expect(throws: JSONParseError.tooDeep(limit: 64, offset: 64)) { try JSONValue(parsing: deep) }
        #expect(try JSONValue(parsing: flat).arrayValue?.count == 499)

        // Accepted nests: 15 KB of 60-deep arrays against a flat 15 KB document.
        let nests = "[" + Array(repeating: Self.nested(60), count: 125).joined(separator: ",") + "]"
        let flatNests = "[" + String(repeating: "0,", count: nests.utf8.count / 2 - 1) + "0]"
        #expect(abs(nests.utf8.count - flatNests.utf8.count) <= 2)
        #expect(try JSONValue(parsing: nests).arrayValue?.count == 125)

        let deepTime = Self.fastest { _ = try? JSONValue(parsing: deep) }
        let flatTime = Self.fastest { _ = try? JSONValue(parsing: flat) }
        let nestsTime = Self.fastest { _ = try? JSONValue(parsing: nests) }
        let flatNestsTime = Self.fastest { _ = try? JSONValue(parsing: flatNests) }
        // Generous factors: the old decoder was thousands of times slower on the deep side.
        #expect(deepTime <= flatTime * 4 + .milliseconds(2), "500-deep \(deepTime) vs flat \(flatTime)")
        #expect(nestsTime <= flatNestsTime * 8 + .milliseconds(2), "60-deep nests \(nestsTime) vs flat \(flatNestsTime)")
    }

    /// The Decodable path (a JSONValue inside a Codable type, or `JSONDecoder().decode`) keeps
    /// working and is bounded by the same depth.
    @Test func decodableIsDepthLimited() throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a":[1,2.5,"x",true,null,{"b":{}}]}"#.utf8))
        #expect(decoded == ["a": [1, 2.5, "x", true, nil, ["b": [:]]]])
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(Self.nested(64).utf8)) == (try JSONValue(parsing: Self.nested(64))))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(JSONValue.self, from: Data(Self.nested(65).utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(JSONValue.self, from: Data(Self.nested(500).utf8)) }
        // Fuzz fixture (janus-json): a scalar inside 64 arrays is within the limit on both paths.
        let scalarAtTheLimit = String(repeating: "[", count: 64) + "2" + String(repeating: "]", count: 64)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(scalarAtTheLimit.utf8)) == (try JSONValue(parsing: scalarAtTheLimit)))
    }

    @Test func serializesWhatItParsed() throws {
        let text = #"{"a":[1,2.5,"x\"y\n",true,null],"b":{"c":-7},"d":"/"}"#
        let value = try JSONValue(parsing: text)
        #expect(value.serialized() == text)
        #expect(try JSONValue(parsing: value.serialized()) == value)
    }
}
