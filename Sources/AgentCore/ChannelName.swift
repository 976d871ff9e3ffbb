/// The rule for room (channel) names: `^[A-Za-z0-9_-]{1,64}$`, as seed-style client SDKs name
/// channels. Janus runs VideoRoom with `string_ids = true`, so any such name is a room id.
///
/// One rule for the engine and the CLI: `AgentEngine.join(_:credentials:options:)` throws
/// ``AgentError/invalidName(_:)`` and `agentd`'s `--room` check exits 2 for the same names.
public enum ChannelName {
    public static let maximumLength = 64

    /// True when `name` is 1 to 64 characters from `A-Z a-z 0-9 _ -`.
    public static func isValid(_ name: String) -> Bool {
        guard (1...maximumLength).contains(name.utf8.count) else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2D
        }
    }

    /// What a valid name looks like, for error messages.
    public static let ruleDescription = "1-64 characters from A-Z a-z 0-9 _ -"
}
