/// Opus over RTP (RFC 7587 §4.2): each payload is exactly one Opus packet, so every RTP packet is
/// a whole frame and every frame decodes on its own (there are no keyframes to wait for).
public struct OpusDepacketizer: Depacketizer {
    public init() {}

    public func fragment(of payload: UnsafeRawBufferPointer) throws(DepacketizerError) -> DepacketizedFragment {
        // Even a DTX packet carries its TOC byte (RFC 6716 §3.1); zero bytes is malformed.
        guard !payload.isEmpty else { throw .emptyPayload }
        return DepacketizedFragment(range: 0..<payload.count, startsFrame: true, isKeyframe: true, endsFrame: true)
    }
}
