import Foundation

/// What makes two joins "the same room" on one engine: the server, compared without case in
/// its scheme and host and without a trailing slash, and the room name exactly.
struct ChannelKey: Hashable, Sendable {
    let server: String
    let room: String

    init(server: String, room: String) {
        self.server = Self.normalized(server)
        self.room = room
    }

    static func normalized(_ server: String) -> String {
        guard var components = URLComponents(string: server) else { return server }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if components.path == "/" { components.path = "" }
        return components.string ?? server
    }
}
