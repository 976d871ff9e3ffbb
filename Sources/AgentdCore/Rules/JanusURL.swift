import Foundation

/// A Janus WebSocket URL: ws:// or wss:// with a host. The one rule for `--server`, the
/// daemon's config and API bodies.
package enum JanusURL {
    /// `text` with the URL's userinfo (`user:password@`) masked as `***@`: what job JSON, logs,
    /// the manifest's `server` and CLI lines show. The real URL is only ever used to connect.
    package static func redacted(_ text: String) -> String {
        guard let userinfo = userinfoRange(text) else { return text }
        return text.replacingCharacters(in: userinfo, with: "***")
    }

    /// The URL's userinfo (`user:password`), for the log's mask; nil without one.
    package static func credentials(_ text: String) -> String? {
        userinfoRange(text).map { String(text[$0]) }
    }

    /// Where `user:password` is: from after `://` to the last `@` of the authority.
    private static func userinfoRange(_ text: String) -> Range<String.Index>? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let authority = text[schemeEnd.upperBound...].prefix { !"/?#".contains($0) }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return schemeEnd.upperBound..<at
    }

    package static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }
}
