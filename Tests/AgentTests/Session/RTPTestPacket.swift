@testable import Agent
@testable import AgentCore
@testable import AgentWire

/// Builds synthetic RTP packets for the receive-path tests with the production header writer.
enum RTPTestPacket {
    static let ssrc: UInt32 = 0x1234_5678

    static func make(
        sequence: UInt16, timestamp: UInt32, marker: Bool = false, payloadType: UInt8 = 96, ssrc: UInt32 = ssrc,
        payload: [UInt8]
    ) throws -> [UInt8] {
        var packet = [UInt8](repeating: 0, count: RTPHeader.fixedLength + payload.count)
        let headerLength = try packet.withUnsafeMutableBytes { buffer throws(RTPError) in
            try RTPHeader.write(
                marker: marker, payloadType: payloadType, sequenceNumber: sequence, timestamp: timestamp, ssrc: ssrc,
                into: buffer)
        }
        packet.replaceSubrange(headerLength..., with: payload)
        return packet
    }

    /// A VP8 payload (RFC 7741): a one-byte descriptor (S set when it starts the frame, PID 0),
    /// then VP8 bytes. A frame's first VP8 byte is the frame tag: bit 0 clear means keyframe.
    static func vp8Payload(startsFrame: Bool, keyframe: Bool = false, body: [UInt8]) -> [UInt8] {
        if startsFrame { return [0x10, keyframe ? 0x00 : 0x01] + body }
        return [0x00] + body
    }
}

extension MediaInstant {
    /// A test instant `milliseconds` after a fixed origin (wall clock 2026-01-01T00:00:00Z).
    static func ms(_ milliseconds: Int64) -> MediaInstant {
        MediaInstant(
            monotonicNanoseconds: 5_000_000_000 + milliseconds * 1_000_000,
            wallNanoseconds: 1_767_225_600_000_000_000 + milliseconds * 1_000_000)
    }
}
