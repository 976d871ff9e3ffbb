/// One message on a WebRTC data channel (RFC 8831 §6.6): text (PPID 51) or binary (PPID 53).
public struct DataChannelMessage: Equatable, Sendable {
    public enum Payload: Equatable, Sendable {
        case text(String)
        case binary([UInt8])
    }

    public var streamID: UInt16
    /// The label the channel was opened with, or "" when the peer sent on a stream it never opened.
    public var label: String
    public var payload: Payload

    public init(streamID: UInt16, label: String, payload: Payload) {
        self.streamID = streamID
        self.label = label
        self.payload = payload
    }
}
