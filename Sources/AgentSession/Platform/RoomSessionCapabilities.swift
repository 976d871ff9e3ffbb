/// What a platform behind ``RoomSession`` can do. A Janus VideoRoom has all of these; a WHIP
/// endpoint only ``publish``.
public struct RoomSessionCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Joins as an unseen participant and reports who comes and goes: an audience channel, and
    /// a host's listener (``HostOptions/listens``), need it.
    public static let roster = RoomSessionCapabilities(rawValue: 1 << 0)
    /// Receives the others' tracks.
    public static let subscribe = RoomSessionCapabilities(rawValue: 1 << 1)
    /// Publishes tracks: a host channel needs it.
    public static let publish = RoomSessionCapabilities(rawValue: 1 << 2)
    /// Sends and receives data-channel messages.
    public static let data = RoomSessionCapabilities(rawValue: 1 << 3)
    /// Restarts ICE on a failed media connection while signaling stays up.
    public static let iceRestart = RoomSessionCapabilities(rawValue: 1 << 4)
}
