/// Someone else in a channel's room, as the room announces them.
///
/// **Identity.** `id` is the server's participant id and the only identity: it is unique in the
/// room for as long as the participant stays, and a rejoin gets a new one. `display` is a label
/// and is *not* unique. Janus VideoRoom (1.1.2, checked in the lab) accepts any number of
/// participants with the same display name (two connections joining one room as "same"): each
/// gets its own random id, `listparticipants` lists both with the same `display`, and neither is
/// refused or renamed. Janus refuses only a join that asks for an `id` already taken (error 436,
/// "User ID … already exists"); we never ask for one. So key everything by
/// `id`; the recorder makes file names unique per recording with `-2`, `-3`, ….
public struct User: Sendable, Hashable, CustomStringConvertible {
    /// The server's participant id (a Janus publisher id).
    public var id: String
    /// The name the participant chose; may be shared with others.
    public var display: String

    public init(id: String, display: String) {
        self.id = id
        self.display = display
    }

    public var description: String { "\(display)(\(id))" }
}
