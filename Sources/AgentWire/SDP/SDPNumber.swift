/// Numbers in SDP fields (RFC 8866 §9: `integer = POS-DIGIT *DIGIT`, ports and payload types
/// are plain digits). Swift's `Int(_:)` also takes a sign ("+9", "-0"), and a field of a
/// thousand digits must not become anything, so fields are read here.
enum SDPNumber {
    /// The value of 1-9 ASCII digits, else nil.
    static func decimal(_ text: Substring) -> Int? {
        guard (1...9).contains(text.utf8.count) else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
