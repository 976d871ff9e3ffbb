/// Turns VP8 RTP payloads (RFC 7741) into the bytes of VP8 frames. It knows nothing of ordering
/// or loss: the jitter buffer hands it the packets of one frame in sequence order.
public enum VP8Depacketizer {
    /// What one RTP payload contributes to its frame.
    public struct Fragment: Equatable, Sendable {
        /// Where the VP8 bytes lie in the payload.
        public var range: Range<Int>
        public var startsFrame: Bool
        /// Only meaningful when `startsFrame`: the frame tag says keyframe.
        public var isKeyframe: Bool
        public var pictureID: UInt16?
    }

    public static func fragment(of payload: UnsafeRawBufferPointer) throws(VP8Error) -> Fragment {
        let descriptor = try VP8PayloadDescriptor.parse(payload)
        guard payload.count > descriptor.length else { throw .emptyPayload }
        let starts = descriptor.startsFrame
        // RFC 6386 §9.1: P (bit 0 of the first frame-tag byte) is 0 for a key frame.
        let keyframe = starts && payload[descriptor.length] & 0x01 == 0
        return Fragment(
            range: descriptor.length..<payload.count, startsFrame: starts, isKeyframe: keyframe,
            pictureID: descriptor.pictureID)
    }

    /// The width and height a keyframe declares (RFC 6386 §9.2: start code 9d 01 2a, then
    /// 14-bit width and height, each with a 2-bit scale), or nil if `frame` is not a keyframe.
    public static func keyframeSize(of frame: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard frame.count >= 10, frame[0] & 0x01 == 0, frame[3] == 0x9D, frame[4] == 0x01, frame[5] == 0x2A else {
            return nil
        }
        let width = Int(frame[6]) | Int(frame[7] & 0x3F) << 8
        let height = Int(frame[8]) | Int(frame[9] & 0x3F) << 8
        return (width, height)
    }
}
