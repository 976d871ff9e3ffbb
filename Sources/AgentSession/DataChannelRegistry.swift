import AgentCore
import AgentTransport
import AgentWire

/// The data channels of one SCTP association and the DCEP handshake (RFC 8832) that opens them,
/// as a plain state machine: feed it SCTP messages, it returns messages to send and events.
///
/// Stream ids follow RFC 8832 §6: the DTLS client opens even ids, the DTLS server odd ones, so
/// both ends can open channels at once without a clash.
public struct DataChannelRegistry: Sendable {
    public struct Outgoing: Equatable, Sendable {
        public var bytes: [UInt8]
        public var streamID: UInt16
        public var ppid: SCTPPayloadProtocol
    }

    public enum Event: Equatable, Sendable {
        /// A channel is usable: ours got its ACK, or the peer opened one.
        case opened(streamID: UInt16, label: String, byPeer: Bool)
        case message(DataChannelMessage)
        /// A DCEP message we could not read; counted, never fatal.
        case malformed(streamID: UInt16, DCEPError)
    }

    public enum Error: Swift.Error, Equatable, Sendable {
        case unknownStream(UInt16)
        case noStreamsLeft
        case encoding(DCEPError)
    }

    public let isDTLSClient: Bool
    public private(set) var labels: [UInt16: String] = [:]
    public private(set) var awaitingAck: Set<UInt16> = []
    private var nextStreamID: UInt16

    public init(isDTLSClient: Bool) {
        self.isDTLSClient = isDTLSClient
        nextStreamID = isDTLSClient ? 0 : 1
    }

    /// Opens a reliable ordered channel: returns its stream id and the DATA_CHANNEL_OPEN to send.
    /// Messages may be sent on it at once (RFC 8832 §6: no need to wait for the ACK).
    public mutating func open(label: String) throws(Error) -> (streamID: UInt16, outgoing: Outgoing) {
        while labels[nextStreamID] != nil {
            guard nextStreamID < 65533 else { throw .noStreamsLeft }
            nextStreamID += 2
        }
        let streamID = nextStreamID
        let bytes: [UInt8]
        do {
            bytes = try DCEPMessage.open(DataChannelOpen(label: label)).encode()
        } catch {
            throw .encoding(error)
        }
        labels[streamID] = label
        awaitingAck.insert(streamID)
        nextStreamID = streamID &+ 2
        return (streamID, Outgoing(bytes: bytes, streamID: streamID, ppid: .dcep))
    }

    /// Handles one SCTP message from the peer.
    public mutating func receive(_ bytes: [UInt8], streamID: UInt16, ppid: SCTPPayloadProtocol) -> (outgoing: [Outgoing], events: [Event]) {
        switch ppid {
        case .dcep:
            let message: DCEPMessage
            do {
                message = try DCEPMessage(parsing: bytes)
            } catch {
                return ([], [.malformed(streamID: streamID, error)])
            }
            switch message {
            case .open(let open):
                labels[streamID] = open.label
                return ([Outgoing(bytes: [DCEPMessage.ackType], streamID: streamID, ppid: .dcep)],
                        [.opened(streamID: streamID, label: open.label, byPeer: true)])
            case .ack:
                guard awaitingAck.remove(streamID) != nil else { return ([], []) }
                return ([], [.opened(streamID: streamID, label: labels[streamID] ?? "", byPeer: false)])
            }
        case .string, .stringPartial:
            let text = String(decoding: bytes, as: UTF8.self)
            return ([], [.message(DataChannelMessage(streamID: streamID, label: labels[streamID] ?? "", payload: .text(text)))])
        case .stringEmpty:
            return ([], [.message(DataChannelMessage(streamID: streamID, label: labels[streamID] ?? "", payload: .text("")))])
        case .binary, .binaryPartial:
            return ([], [.message(DataChannelMessage(streamID: streamID, label: labels[streamID] ?? "", payload: .binary(bytes)))])
        case .binaryEmpty:
            return ([], [.message(DataChannelMessage(streamID: streamID, label: labels[streamID] ?? "", payload: .binary([])))])
        default:
            return ([], [])
        }
    }

    /// The SCTP message for `payload` on an open channel. Empty payloads use the "empty" PPIDs
    /// with one ignored byte, because SCTP cannot carry an empty message (RFC 8831 §6.6).
    public func send(_ payload: DataChannelMessage.Payload, streamID: UInt16) throws(Error) -> Outgoing {
        guard labels[streamID] != nil else { throw .unknownStream(streamID) }
        switch payload {
        case .text(let text) where text.isEmpty:
            return Outgoing(bytes: [0], streamID: streamID, ppid: .stringEmpty)
        case .text(let text):
            return Outgoing(bytes: Array(text.utf8), streamID: streamID, ppid: .string)
        case .binary(let bytes) where bytes.isEmpty:
            return Outgoing(bytes: [0], streamID: streamID, ppid: .binaryEmpty)
        case .binary(let bytes):
            return Outgoing(bytes: bytes, streamID: streamID, ppid: .binary)
        }
    }
}
