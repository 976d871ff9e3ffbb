import AgentCore

/// DATA_CHANNEL_OPEN, the message that opens a WebRTC data channel (RFC 8832 §5.1).
///
/// Sent on the stream the new channel will use, with PPID 50 (``SCTPPayloadProtocol/dcep``). The
/// peer answers with DATA_CHANNEL_ACK (``DCEPMessage/ack``, a single byte 0x02, §5.2).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |  Message Type |  Channel Type |            Priority           |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                    Reliability Parameter                      |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |         Label Length          |       Protocol Length         |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// \                                                               /
/// |                             Label                             |
/// /                                                               \
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// \                                                               /
/// |                            Protocol                           |
/// /                                                               \
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
///
/// Message Type is 0x03. All integers are big-endian. Label and Protocol are UTF-8 without
/// padding or terminator. The Reliability Parameter is a retransmission count or a lifetime in
/// milliseconds for the partial-reliability channel types and is ignored (sent as 0) otherwise.
public struct DataChannelOpen: Sendable, Equatable {
    /// §5.1 Channel Type: bit 0x80 means unordered; the low bits pick the reliability.
    public enum ChannelType: UInt8, Sendable, Equatable, CaseIterable {
        case reliable = 0x00
        case reliableUnordered = 0x80
        case partialReliableRetransmit = 0x01
        case partialReliableRetransmitUnordered = 0x81
        case partialReliableTimed = 0x02
        case partialReliableTimedUnordered = 0x82

        public var isOrdered: Bool { rawValue & 0x80 == 0 }
    }

    public static let messageType: UInt8 = 0x03
    /// Fixed part before the label: type, channel type, priority, reliability, two lengths.
    public static let headerSize = 12

    public var channelType: ChannelType
    /// §6.4 priorities: 128 below normal, 256 normal, 512 high, 1024 extra high.
    public var priority: UInt16
    public var reliabilityParameter: UInt32
    public var label: String
    public var `protocol`: String

    public init(
        channelType: ChannelType = .reliable, priority: UInt16 = 256, reliabilityParameter: UInt32 = 0,
        label: String, protocol: String = ""
    ) {
        self.channelType = channelType
        self.priority = priority
        self.reliabilityParameter = reliabilityParameter
        self.label = label
        self.protocol = `protocol`
    }

    /// Encodes the message. Label and protocol longer than 65535 UTF-8 bytes cannot be expressed.
    public func encode() throws(DCEPError) -> [UInt8] {
        let labelBytes = Array(label.utf8)
        let protocolBytes = Array(`protocol`.utf8)
        guard labelBytes.count <= Int(UInt16.max) else { throw .fieldTooLong(field: "label", length: labelBytes.count) }
        guard protocolBytes.count <= Int(UInt16.max) else {
            throw .fieldTooLong(field: "protocol", length: protocolBytes.count)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize + labelBytes.count + protocolBytes.count)
        bytes.append(Self.messageType)
        bytes.append(channelType.rawValue)
        bytes.appendBigEndian(priority)
        bytes.appendBigEndian(reliabilityParameter)
        bytes.appendBigEndian(UInt16(labelBytes.count))
        bytes.appendBigEndian(UInt16(protocolBytes.count))
        bytes += labelBytes
        bytes += protocolBytes
        return bytes
    }

    /// Parses a DATA_CHANNEL_OPEN. Trailing bytes after the protocol are an error: the lengths
    /// must account for the whole message.
    public init(parsing bytes: some Collection<UInt8>) throws(DCEPError) {
        self = try ByteReader.read(bytes) { (reader: inout ByteReader) throws(DCEPError) in try Self(reading: &reader) }
    }

    private init(reading reader: inout ByteReader) throws(DCEPError) {
        let count = reader.bytes.count
        let type: UInt8
        do throws(ByteRangeError) {
            type = try reader.readUInt8()
        } catch {
            throw .truncated(needed: 1, got: 0)
        }
        guard type == Self.messageType else { throw .unexpectedMessageType(type) }
        let rawChannelType: UInt8, priority: UInt16, reliability: UInt32, labelLength: UInt16, protocolLength: UInt16
        do throws(ByteRangeError) {
            rawChannelType = try reader.readUInt8()
            priority = try reader.readBigEndian()
            reliability = try reader.readBigEndian()
            labelLength = try reader.readBigEndian()
            protocolLength = try reader.readBigEndian()
        } catch {
            throw .truncated(needed: Self.headerSize, got: count)
        }
        guard let channelType = ChannelType(rawValue: rawChannelType) else { throw .unknownChannelType(rawChannelType) }
        let needed = Self.headerSize + Int(labelLength) + Int(protocolLength)
        guard count >= needed else { throw .truncated(needed: needed, got: count) }
        guard count == needed else { throw .trailingBytes(count: count - needed) }
        let label: String?, proto: String?
        do throws(ByteRangeError) {
            label = String(validating: try reader.readBytes(Int(labelLength)), as: UTF8.self)
            proto = String(validating: try reader.readBytes(Int(protocolLength)), as: UTF8.self)
        } catch {
            throw .truncated(needed: needed, got: count)
        }
        guard let label else { throw .invalidUTF8(field: "label") }
        guard let proto else { throw .invalidUTF8(field: "protocol") }
        self.init(
            channelType: channelType, priority: priority, reliabilityParameter: reliability, label: label,
            protocol: proto)
    }
}
