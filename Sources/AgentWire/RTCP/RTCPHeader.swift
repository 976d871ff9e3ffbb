import AgentCore

/// The common header of every RTCP packet (RFC 3550 §6.4.1, RFC 4585 §6.1).
///
///      0                   1                   2                   3
///      0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |V=2|P| RC/FMT  |      PT       |             length            |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///
/// `length` counts 32-bit words minus one, header included.
public struct RTCPHeader: Equatable, Sendable {
    /// Report count, or feedback message type (FMT) for RTPFB/PSFB.
    public var count: UInt8
    public var packetType: UInt8
    /// The whole packet's length in bytes, header included.
    public var byteLength: Int
    public var padding: Bool

    public static let length = 4

    public static let senderReport: UInt8 = 200
    public static let receiverReport: UInt8 = 201
    public static let sourceDescription: UInt8 = 202
    public static let goodbye: UInt8 = 203
    public static let transportFeedback: UInt8 = 205
    public static let payloadFeedback: UInt8 = 206

    public init(count: UInt8, packetType: UInt8, byteLength: Int, padding: Bool = false) {
        self.count = count
        self.packetType = packetType
        self.byteLength = byteLength
        self.padding = padding
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(RTCPError) -> RTCPHeader {
        let available = bytes.count - offset
        guard offset >= 0, available >= length else { throw .truncated(needed: length, got: available) }
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        let word: UInt32
        do throws(ByteRangeError) {
            word = try reader.readBigEndian()
        } catch {
            throw RTCPError(error)
        }
        let first = UInt8(truncatingIfNeeded: word >> 24)
        let packetType = UInt8(truncatingIfNeeded: word >> 16)
        guard first >> 6 == 2 else { throw .badVersion(first >> 6) }
        let byteLength = (Int(word & 0xFFFF) + 1) * 4
        guard byteLength <= available else { throw .lengthPastEnd(declared: byteLength, available: available) }
        return RTCPHeader(count: first & 0x1F, packetType: packetType, byteLength: byteLength, padding: first & 0x20 != 0)
    }

    /// Appends the header for a packet of `byteLength` bytes (a multiple of 4).
    public func write(into output: inout [UInt8]) {
        output.append(0x80 | (padding ? 0x20 : 0) | (count & 0x1F))
        output.append(packetType)
        output.appendBigEndian(UInt16(byteLength / 4 - 1))
    }
}

extension RTCPHeader {
    /// Runs `read` with a reader placed after the header of `packet`, which holds one packet
    /// alone; a read past its end becomes the packet's ``RTCPError/truncated(needed:got:)``.
    static func readBody<Value>(
        of packet: UnsafeRawBufferPointer, _ read: (inout ByteReader) throws(ByteRangeError) -> Value
    ) throws(RTCPError) -> Value {
        var reader = ByteReader(packet)
        do throws(ByteRangeError) {
            try reader.skip(length)
            return try read(&reader)
        } catch {
            throw RTCPError(error)
        }
    }
}
