/// Splits VP8 frames into RTP payloads (RFC 7741 §4) no larger than `maxPayloadSize`, each with a
/// payload descriptor carrying a 15-bit picture id that increases per frame (receivers use it to
/// spot lost frames).
public struct VP8Packetizer: Sendable {
    public let maxPayloadSize: Int
    public private(set) var pictureID: UInt16

    public init(maxPayloadSize: Int = 1200, initialPictureID: UInt16 = UInt16.random(in: 0...0x7FFF)) {
        self.maxPayloadSize = max(maxPayloadSize, 8)
        pictureID = initialPictureID & 0x7FFF
    }

    /// The payloads of one frame, in order; the last one gets the RTP marker bit.
    public mutating func packetize(_ frame: [UInt8]) -> [[UInt8]] {
        defer { pictureID = (pictureID &+ 1) & 0x7FFF }
        guard !frame.isEmpty else { return [] }
        let descriptorLength = VP8PayloadDescriptor(startOfPartition: true, pictureID: pictureID).length
        let chunk = maxPayloadSize - descriptorLength
        var payloads: [[UInt8]] = []
        payloads.reserveCapacity((frame.count + chunk - 1) / chunk)
        var offset = 0
        while offset < frame.count {
            let end = min(offset + chunk, frame.count)
            var payload: [UInt8] = []
            payload.reserveCapacity(descriptorLength + end - offset)
            VP8PayloadDescriptor(startOfPartition: offset == 0, pictureID: pictureID).write(into: &payload)
            payload.append(contentsOf: frame[offset..<end])
            payloads.append(payload)
            offset = end
        }
        return payloads
    }
}
