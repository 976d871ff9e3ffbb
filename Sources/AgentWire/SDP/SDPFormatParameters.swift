/// The parameters of an `a=fmtp` line in the form most codecs use: a semicolon-separated list
/// of `name=value` pairs, as RFC 4855 §3 maps media type parameters to SDP (RFC 6184 §8.2.1 for
/// H.264, RFC 7587 §7 for Opus). RFC 8866 §6.15 leaves the value format-specific, so this is a
/// reading aid, not a validator: spaces around names and values are dropped, names compare
/// case-insensitively (media type parameter names do, RFC 6838 §4.3), an entry without `=`
/// has an empty value, and the first of a repeated name wins.
///
///     a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
public struct SDPFormatParameters: Equatable, Sendable {
    /// Name (lowercased) and value of each entry, in order.
    public let entries: [(name: String, value: String)]

    /// Parses the value after the payload type (`MediaDescription.formatParameters(payloadType:)`).
    public init(_ text: String) {
        entries = text.split(separator: ";").compactMap { entry in
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingSpaces.lowercased()
            guard !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? String(parts[1].trimmingSpaces) : "")
        }
    }

    /// The value of `name` (any case), or nil when it is absent.
    public subscript(name: String) -> String? {
        let lowercased = name.lowercased()
        return entries.first { $0.name == lowercased }?.value
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
