import AgentCore

/// Why a ``SendStream`` could not be set up. Only the configuration can be wrong: once built, the
/// stream packetizes any frame the caller gives it.
public enum SendStreamError: Error, Equatable, Sendable {
    /// The MID header extension (RFC 8843 §15.2) must use a one-byte id 1…14 and a MID of
    /// 1…16 bytes (RFC 8285 §4.2).
    case invalidMIDExtension(id: UInt8, length: Int)
    /// Packets must hold the header and at least a few payload bytes.
    case maxPacketSizeTooSmall(Int)
    case invalidClockRate(Int)
    /// There is no packetizer for this codec yet (``MediaCodec/canPacketize``).
    case unsupportedCodec(MediaCodec)
}
