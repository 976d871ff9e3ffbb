/// Turns VP9 RTP payloads (RFC 9628) into the bytes of VP9 frames, like ``VP8Depacketizer``:
/// it only reads each packet's descriptor; ordering and loss belong to the jitter buffer.
public enum VP9Depacketizer {
    public struct Fragment: Equatable, Sendable {
        public var range: Range<Int>
        public var startsFrame: Bool
        public var endsFrame: Bool
        public var isKeyframe: Bool
        public var pictureID: UInt16?
        /// The base layer's size when the packet carried a scalability structure.
        public var width: Int?
        public var height: Int?
    }

    public static func fragment(of payload: UnsafeRawBufferPointer) throws(VP9Error) -> Fragment {
        let descriptor = try VP9PayloadDescriptor.parse(payload)
        guard payload.count > descriptor.length else { throw .emptyPayload }
        return Fragment(
            range: descriptor.length..<payload.count, startsFrame: descriptor.beginningOfFrame,
            endsFrame: descriptor.endOfFrame, isKeyframe: descriptor.startsKeyframe, pictureID: descriptor.pictureID,
            width: descriptor.layerSizes.first?.width, height: descriptor.layerSizes.first?.height)
    }
}
