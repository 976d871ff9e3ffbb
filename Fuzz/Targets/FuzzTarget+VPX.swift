import Agent

extension FuzzTarget {
    /// VP8 payload descriptors and depacketizing (RFC 7741), and frame assembly: the first byte
    /// picks a packet size, the rest is a frame that the packetizer splits and the jitter buffer
    /// (through the VP8 depacketizer) must put back together unchanged. A parsed descriptor
    /// must write back to the bytes it was read from.
    public static let vp8 = FuzzTarget(name: "vp8", summary: "VP8PayloadDescriptor, VP8Depacketizer, keyframeSize, packetize → JitterBuffer round trip", maxInputLength: 4096) { bytes in
        if let descriptor = try? VP8PayloadDescriptor.parse(bytes) {
            var written: [UInt8] = []
            descriptor.write(into: &written)
            // Fields may be written more compactly than they were read (an X byte with no
            // extension flags is left out), so the fields, not the length, must come back.
            var expected = descriptor
            expected.length = written.count
            FuzzCheck.expect((written.withUnsafeBytes { try? VP8PayloadDescriptor.parse($0) }) == expected, "\(descriptor) does not read back from \(written)")
        }
        if let fragment = try? VP8Depacketizer.fragment(of: bytes) {
            FuzzCheck.expect(fragment.range.upperBound <= bytes.count && !fragment.range.isEmpty, "fragment \(fragment.range) of \(bytes.count) bytes")
        }
        _ = VP8Depacketizer.keyframeSize(of: bytes)

        var input = FuzzInput(bytes)
        let maxPayloadSize = 8 + Int(input.byte())
        let frame = input.rest()
        guard !frame.isEmpty else { return }
        var packetizer = VP8Packetizer(maxPayloadSize: maxPayloadSize, initialPictureID: 0x1234)
        let payloads = packetizer.packetize(frame)
        guard let assembled = assembledFrame(of: payloads, depacketizer: VP8DepacketizerAdapter()) else { return }
        FuzzCheck.expect(assembled.bytes == frame, "the frame came back changed (\(assembled.bytes.count) of \(frame.count) bytes)")
        FuzzCheck.expect(assembled.isKeyframe == (frame[0] & 1 == 0), "keyframe flag \(assembled.isKeyframe) for tag \(frame[0])")
    }

    /// VP9 payload descriptors (RFC 9628 §4.2), flexible and non-flexible, with scalability
    /// structures, and the depacketizer the jitter buffer uses.
    public static let vp9 = FuzzTarget(name: "vp9", summary: "VP9PayloadDescriptor.parse, VP9Depacketizer, VP9DepacketizerAdapter", maxInputLength: 1500) { bytes in
        if let descriptor = try? VP9PayloadDescriptor.parse(bytes) {
            FuzzCheck.expect(descriptor.length <= bytes.count, "descriptor of \(descriptor.length) bytes in \(bytes.count)")
            _ = descriptor.startsKeyframe
        }
        if let fragment = try? VP9Depacketizer.fragment(of: bytes) {
            FuzzCheck.expect(fragment.range.upperBound <= bytes.count && !fragment.range.isEmpty, "fragment \(fragment.range) of \(bytes.count) bytes")
        }
        _ = try? VP9DepacketizerAdapter().fragment(of: bytes)
    }
}
