import AgentMedia

/// VP9 over RTP (RFC 9628) for the ``JitterBuffer``, one picture per frame.
///
/// A picture ("superframe") may hold one layer frame per spatial layer, all with the same RTP
/// timestamp, each opened by B=1. Only B=1 on the base spatial layer (SID 0, or no layer
/// indices) starts a buffer frame, and the end is the RTP marker bit (§4.1: last packet of the
/// picture), so the layer frames of one picture come out as one ``MediaFrame``. They are
/// concatenated as received; libvpx and WebM want a superframe index (VP9 bitstream Annex B)
/// after them when there are several, which is the writer's business, not the jitter buffer's.
public struct VP9DepacketizerAdapter: Depacketizer {
    public init() {}

    public func fragment(of payload: UnsafeRawBufferPointer) throws(DepacketizerError) -> DepacketizedFragment {
        let descriptor: VP9PayloadDescriptor
        do {
            descriptor = try VP9PayloadDescriptor.parse(payload)
        } catch {
            throw .vp9(error)
        }
        guard payload.count > descriptor.length else { throw .vp9(.emptyPayload) }
        let startsPicture = descriptor.beginningOfFrame && (descriptor.spatialLayer ?? 0) == 0
        return DepacketizedFragment(
            range: descriptor.length..<payload.count, startsFrame: startsPicture,
            isKeyframe: startsPicture && descriptor.startsKeyframe)
    }
}
