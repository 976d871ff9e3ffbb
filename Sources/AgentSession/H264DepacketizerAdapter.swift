import AgentMedia

/// H.264 over RTP (RFC 6184, packetization-mode 1) for the ``JitterBuffer``: one access unit per
/// frame, put out in Annex B form (a start code before each NAL unit), the form the recorder
/// and decoders take.
///
/// - Start: a payload whose first NAL unit opens an access unit (AUD, SEI, SPS, PPS, or a slice
///   with first_mb_in_slice 0; ``H264Depacketizer/Fragment/startsAccessUnit``). Since several
///   payloads of one access unit can look like that, a start does not end the frame before it
///   (``frameStartEndsPreviousFrame`` is false): only the marker bit (§5.1: last packet of the
///   access unit) or a new RTP timestamp does. After a loss the buffer resumes at the next
///   start of another timestamp.
/// - Keyframe: the access unit holds an IDR slice (type 5). Each payload carrying one says so,
///   so an access unit opened by a STAP-A of SPS and PPS whose IDR slice follows in FU-As is a
///   keyframe; SPS or PPS alone do not make one (encoders repeat them before other frames too).
public struct H264DepacketizerAdapter: Depacketizer {
    public init() {}

    public var frameStartEndsPreviousFrame: Bool { false }

    public func fragment(of payload: UnsafeRawBufferPointer) throws(DepacketizerError) -> DepacketizedFragment {
        let fragment: H264Depacketizer.Fragment
        do {
            fragment = try H264Depacketizer.fragment(of: payload)
        } catch {
            throw .h264(error)
        }
        return DepacketizedFragment(
            range: 0..<payload.count, startsFrame: fragment.startsAccessUnit, isKeyframe: fragment.containsIDRSlice)
    }

    public func frameBytes(of payload: UnsafeRawBufferPointer, fragment: DepacketizedFragment) throws(DepacketizerError) -> [UInt8] {
        var bytes: [UInt8] = []
        // Start codes add a few bytes per NAL unit (the array grows for a STAP-A of many).
        bytes.reserveCapacity(payload.count + 8)
        do {
            try H264Depacketizer.appendAnnexB(of: payload, to: &bytes)
        } catch {
            throw .h264(error)
        }
        return bytes
    }
}
