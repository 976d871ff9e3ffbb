/// A Data Channel Establishment Protocol message (RFC 8832 §5), as carried with PPID 50.
///
/// DATA_CHANNEL_ACK (§5.2) is one byte:
///
/// ```
///  0 1 2 3 4 5 6 7
/// +-+-+-+-+-+-+-+-+
/// |  Message Type |   0x02
/// +-+-+-+-+-+-+-+-+
/// ```
///
/// and DATA_CHANNEL_OPEN (0x03) is ``DataChannelOpen``. The first byte tells them apart.
public enum DCEPMessage: Sendable, Equatable {
    case open(DataChannelOpen)
    case ack

    public static let ackType: UInt8 = 0x02

    public func encode() throws(DCEPError) -> [UInt8] {
        switch self {
        case .open(let open): try open.encode()
        case .ack: [Self.ackType]
        }
    }

    public init(parsing bytes: some Collection<UInt8>) throws(DCEPError) {
        guard let type = bytes.first else { throw .truncated(needed: 1, got: 0) }
        switch type {
        case DataChannelOpen.messageType:
            self = .open(try DataChannelOpen(parsing: bytes))
        case Self.ackType:
            // §5.2: the ACK is exactly the type byte.
            guard bytes.count == 1 else { throw .trailingBytes(count: bytes.count - 1) }
            self = .ack
        default:
            throw .unexpectedMessageType(type)
        }
    }
}
