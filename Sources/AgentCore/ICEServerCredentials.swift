/// The username and password for the TURN servers of a join (RFC 8656 §9.2, the long-term
/// credential mechanism of RFC 8489 §9.2): a secret, kept in ``RoomCredentials`` beside the
/// token and pin, never in ``RoomJoin`` or an ``ICEServer``'s URI.
///
/// Every textual form (`description`, `debugDescription`, a `Mirror`) shows the lengths only,
/// and the type is not `Codable`, so neither part reaches a log line, job JSON, a manifest or an
/// error text by accident. The username is treated as a secret too: with TURN's REST-style
/// ephemeral credentials it carries the expiry and the user's identity.
public struct ICEServerCredentials: Sendable, Equatable {
    public var username: String
    /// The password (W3C `RTCIceServer.credential`).
    public var credential: String

    /// RFC 8489 §14.3: USERNAME is less than 513 bytes. The password is bounded to what a real
    /// TURN deployment uses, so nothing unbounded is handed to libnice.
    public static let maximumUsernameBytes = 512
    public static let maximumCredentialBytes = 512

    public init(username: String, credential: String) {
        self.username = username
        self.credential = credential
    }

    /// Why these cannot be used, or nil. The reason never contains either part.
    public var problem: String? {
        func check(_ value: String, _ name: String, limit: Int) -> String? {
            if value.isEmpty { return "the \(name) is empty" }
            if value.utf8.count > limit { return "the \(name) is longer than \(limit) bytes" }
            // Handed to C as a NUL-terminated string.
            if value.utf8.contains(0) { return "the \(name) contains a NUL byte" }
            return nil
        }
        return check(username, "username", limit: Self.maximumUsernameBytes)
            ?? check(credential, "credential", limit: Self.maximumCredentialBytes)
    }
}

extension ICEServerCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "ICEServerCredentials(username: \(RoomCredentials.redacted(username)), credential: \(RoomCredentials.redacted(credential)))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self, children: ["username": RoomCredentials.redacted(username), "credential": RoomCredentials.redacted(credential)],
            displayStyle: .struct)
    }
}
