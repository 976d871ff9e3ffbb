/// A job's id: a client's idempotency key or a generated one; 1 to 64 of `A-Z a-z 0-9 _ -`, so
/// it is safe in a Redis key, a URL path and a log line.
public enum JobID {
    public static let rule = "1 to 64 characters from A-Z a-z 0-9 _ -"

    public static func isValid(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy(isWordByte)
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
