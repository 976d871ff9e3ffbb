import Foundation

/// A Janus WebSocket URL: ws:// or wss:// with a host. The one rule for `--server`, the
/// daemon's config and API bodies.
enum JanusURL {
    static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }
}
