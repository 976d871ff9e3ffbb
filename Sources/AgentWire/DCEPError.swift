/// Why a DCEP message (RFC 8832) could not be parsed or encoded.
public enum DCEPError: Error, Equatable, Sendable {
    case truncated(needed: Int, got: Int)
    /// Neither DATA_CHANNEL_OPEN (0x03) nor DATA_CHANNEL_ACK (0x02).
    case unexpectedMessageType(UInt8)
    case unknownChannelType(UInt8)
    /// Bytes left over after the lengths in the header were used up.
    case trailingBytes(count: Int)
    case invalidUTF8(field: String)
    /// A label or protocol longer than its 16-bit length field allows.
    case fieldTooLong(field: String, length: Int)
}
