import Agent
import AgentdCore
import Foundation

/// Checks on option values shared by several commands. Each throws a ``UsageError`` (exit 2).
extension ParsedArguments {
    /// `--room`: Janus runs with string ids; we accept what channel names allow (the engine's
    /// rule, ``ChannelName``).
    func roomName(_ name: String = "room") throws -> String? {
        guard let room = value(name) else { return nil }
        guard ChannelName.isValid(room) else {
            throw UsageError.invalidValue(option: name, value: room, expected: "a room name of \(ChannelName.ruleDescription)")
        }
        return room
    }

    /// `--display`: ``DisplayName``'s rule.
    func displayName(_ name: String = "display") throws -> String? {
        guard let display = value(name) else { return nil }
        guard DisplayName.isValid(display) else {
            throw UsageError.invalidValue(option: name, value: String(display.prefix(80)), expected: DisplayName.ruleDescription)
        }
        return display
    }

    /// `--server`: a ws:// or wss:// URL with a host.
    func serverURL(_ name: String = "server") throws -> URL? {
        guard let text = value(name) else { return nil }
        guard let url = JanusURL.parse(text) else {
            throw UsageError.invalidValue(option: name, value: text, expected: "a ws:// or wss:// URL")
        }
        return url
    }

    /// `--whip`: an http:// or https:// URL with a host (RFC 9725's endpoint URL).
    func whipURL(_ name: String = "whip") throws -> URL? {
        guard let text = value(name) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw UsageError.invalidValue(option: name, value: String(text.prefix(200)), expected: "an http:// or https:// URL")
        }
        return url
    }
}
