import Foundation

/// Checks on option values shared by several commands. Each throws a ``UsageError`` (exit 2).
extension ParsedArguments {
    /// `--room`: Janus runs with string ids; we accept what channel names allow.
    func roomName(_ name: String = "room") throws -> String? {
        guard let room = value(name) else { return nil }
        guard Self.isChannelName(room) else {
            throw UsageError.invalidValue(option: name, value: room, expected: "a room name of 1-64 characters from A-Z a-z 0-9 _ -")
        }
        return room
    }

    /// `--server`: a ws:// or wss:// URL with a host.
    func serverURL(_ name: String = "server") throws -> URL? {
        guard let text = value(name) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            let host = url.host, !host.isEmpty
        else {
            throw UsageError.invalidValue(option: name, value: text, expected: "a ws:// or wss:// URL")
        }
        return url
    }

    static func isChannelName(_ name: String) -> Bool {
        guard (1...64).contains(name.utf8.count) else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2D
        }
    }
}
