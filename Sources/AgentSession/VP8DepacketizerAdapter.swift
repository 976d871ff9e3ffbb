import AgentMedia

/// VP8 over RTP (RFC 7741) for the ``JitterBuffer``: the payload descriptor says whether a packet
/// starts a frame (S=1, PID=0) and the frame tag says whether that frame is a keyframe.
public struct VP8DepacketizerAdapter: Depacketizer {
    public init() {}

    public func fragment(of payload: UnsafeRawBufferPointer) throws(DepacketizerError) -> DepacketizedFragment {
        let fragment: VP8Depacketizer.Fragment
        do {
            fragment = try VP8Depacketizer.fragment(of: payload)
        } catch {
            throw .vp8(error)
        }
        return DepacketizedFragment(range: fragment.range, startsFrame: fragment.startsFrame, isKeyframe: fragment.isKeyframe)
    }
}
