/// The secrets of a join, kept apart from ``RoomJoin`` so that the join can be logged, compared
/// and stored while these cannot leak with it.
///
/// The token and pin used to ride in every join copy next to harmless fields, and each copy's
/// default `description` or `dump` printed them. Every layer carries this value instead.
///
/// Every textual form (`description`, `debugDescription`, a `Mirror`, so `dump` and the
/// printing of any value that holds one) shows `<redacted N bytes>` or `none`, never the text.
/// It is deliberately not `Codable`, so it cannot slip into a manifest, job JSON or a log line
/// built by encoding.
public struct RoomCredentials: Sendable, Equatable {
    /// The Janus core token (`token_auth`), or a WHIP endpoint's bearer token.
    public var token: String?
    /// The room's pin, or a room token where the platform has those. Janus also sets it on a
    /// room that the join creates.
    public var pin: String?
    /// The username and password for the join's TURN servers (``ICEConfiguration/servers``).
    public var iceServer: ICEServerCredentials?

    public init(token: String? = nil, pin: String? = nil, iceServer: ICEServerCredentials? = nil) {
        self.token = token
        self.pin = pin
        self.iceServer = iceServer
    }

    /// No token, no pin.
    public static let none = RoomCredentials()

    /// What any textual form shows for a secret: its length only.
    static func redacted(_ secret: String?) -> String {
        guard let secret else { return "none" }
        return "<redacted \(secret.utf8.count) bytes>"
    }
}

extension RoomCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The TURN credentials appear only when there are some, each part redacted.
    public var description: String {
        let iceServer = self.iceServer.map { ", iceServer: \($0)" } ?? ""
        return "RoomCredentials(token: \(Self.redacted(token)), pin: \(Self.redacted(pin))\(iceServer))"
    }

    public var debugDescription: String { description }

    /// Children that are the redacted strings, so `dump`, `Mirror(reflecting:)` walks and the
    /// default printing of a value holding credentials see no secret either.
    public var customMirror: Mirror {
        var children: [Mirror.Child] = [("token", Self.redacted(token)), ("pin", Self.redacted(pin))]
        // Its own mirror redacts both parts.
        if let iceServer { children.append(("iceServer", iceServer)) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
