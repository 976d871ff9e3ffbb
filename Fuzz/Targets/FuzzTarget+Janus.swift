import Agent
import Foundation

extension FuzzTarget {
    /// Janus messages and API bodies: JSON text into ``JSONValue``, then into ``JanusMessage``
    /// and VideoRoom events. A value must serialize to text that parses back equal, and the
    /// parser must agree with `JSONDecoder` on every text both are given (it replaced it).
    public static let janusJSON = FuzzTarget(name: "janus-json", summary: "JSONValue(parsing:), serialized(), JanusMessage, VideoRoomEvent, JSONDecoder agreement", maxInputLength: 8192) { bytes in
        let parsed = Result { () throws(JSONParseError) in try JSONValue(parsing: bytes) }
        agreesWithJSONDecoder(bytes, parsed: parsed)
        guard case .success(let value) = parsed else { return }
        let text = value.serialized()
        let again = try? JSONValue(parsing: text)
        // Numbers are written as their Double's shortest text, so they come back equal at
        // Double precision, and one written without a fraction may come back an integer.
        FuzzCheck.expect(again.map { sameNumbers($0, value) } == true, "\(text) reads back as \(String(describing: again))")
        guard let message = try? JanusMessage(json: value) else { return }
        _ = message.pluginError
        if let pluginData = message.pluginData { _ = VideoRoomEvent(pluginData: pluginData) }
        if let data = message.data { _ = VideoRoomEvent(pluginData: data) }
    }

    /// Texts the old JSONDecoder-based reading took must still read the same, and the other way
    /// round. Only shallow texts: the Decodable path costs more with depth, and is bounded at 64.
    ///
    /// Known differences: JSONDecoder checks a string only when something decodes it, so a bad
    /// string under a repeated key (whose first value wins) passes it; JSONSerialization reads
    /// every string, so where only JSONDecoder accepts, JSONSerialization must refuse.
    private static func agreesWithJSONDecoder(_ bytes: UnsafeRawBufferPointer, parsed: Result<JSONValue, JSONParseError>) {
        // A raw NUL is never JSON (in a string it must be escaped); Foundation's readers take
        // one next to a top-level number (`9\0`, `\02`), so texts with one are not compared.
        if bytes.contains(0) {
            FuzzCheck.expect((try? parsed.get()) == nil, "the parser read a text with a NUL byte: \(parsed)")
            return
        }
        guard bytes.count <= 1024, String(validating: bytes, as: UTF8.self) != nil else { return }
        let data = Data(bytes)
        let decoded = try? JSONDecoder().decode(JSONValue.self, from: data)
        switch (decoded, parsed) {
        case (let decoded?, .success(let parsed)):
            // Past 38 significant digits JSONDecoder's Decimal drops digits, so there only the
            // value (to a Double's last bits), not integer or double, must agree.
            FuzzCheck.expect(decoded == parsed || hasOverlongNumber(bytes) && sameNumbers(decoded, parsed, ulps: 2),
                             "JSONDecoder read \(decoded), the parser \(parsed)")
        case (let decoded?, .failure(let error)):
            FuzzCheck.expect((try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil,
                             "JSONDecoder and JSONSerialization read \(decoded), the parser failed: \(error)")
        case (nil, .success(let parsed)):
            FuzzCheck.expect(false, "JSONDecoder failed, the parser read \(parsed)")
        case (nil, .failure):
            break
        }
    }

    /// A number literal with more than 38 digits.
    private static func hasOverlongNumber(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var digits = 0
        for byte in bytes {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
                if digits > 38 { return true }
            } else if byte != UInt8(ascii: ".") {
                digits = 0
            }
        }
        return false
    }

    /// Equal, with numbers compared as Doubles (integer or double alike), within `ulps` units
    /// in the last place.
    private static func sameNumbers(_ a: JSONValue, _ b: JSONValue, ulps: Double = 0) -> Bool {
        func close(_ x: Double, _ y: Double) -> Bool { x == y || abs(x - y) <= ulps * max(x.ulp, y.ulp) }
        switch (a, b) {
        case (.integer(let integer), .double(let double)), (.double(let double), .integer(let integer)): return close(Double(integer), double)
        case (.integer(let left), .integer(let right)): return close(Double(left), Double(right))
        case (.double(let left), .double(let right)): return close(left, right)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { sameNumbers($0, $1, ulps: ulps) }
        case (.object(let left), .object(let right)):
            return left.count == right.count && left.allSatisfy { key, value in right[key].map { sameNumbers(value, $0, ulps: ulps) } ?? false }
        default: return a == b
        }
    }

    /// Janus core tokens, from the command line, recipes and the API: reading one never traps,
    /// whatever its expiry says, and neither does asking when to warn before it runs out.
    public static let janusToken = FuzzTarget(name: "janus-token", summary: "JanusToken(_:), expiry, plugins, warningDelay", maxInputLength: 512) { bytes in
        let token = JanusToken(String(decoding: bytes, as: UTF8.self))
        _ = token.description
        for lead in [Duration.zero, .seconds(30), .seconds(Int64.max)] {
            _ = token.warningDelay(lead: lead, now: Date(timeIntervalSince1970: 1_700_000_000))
        }
        _ = token.warningDelay(lead: .seconds(1), now: .distantPast)
        _ = token.warningDelay(lead: .seconds(1), now: .distantFuture)
    }
}
