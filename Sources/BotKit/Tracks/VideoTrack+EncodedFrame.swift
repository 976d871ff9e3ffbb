extension VideoTrack {
    /// One VP8 frame out of the track, ready for an RTP packetizer (RFC 7741).
    public struct EncodedFrame: Sendable, Equatable {
        /// The compressed frame, as one VP8 payload (not yet split into RTP packets).
        public var bytes: [UInt8]
        /// Unwrapped RTP time at 90 kHz: 0 at the first frame's capture time, then following
        /// capture time, strictly increasing. The sender adds its random initial offset.
        public var rtpTimestamp: Int64
        /// A keyframe decodes on its own; the first frame, the first at each new size and the
        /// one after ``VideoTrack/requestKeyframe()`` are keyframes.
        public var isKeyframe: Bool
        public var width: Int
        public var height: Int
        /// When the picture was captured, as given to ``VideoTrack/push(_:capturedAt:)``.
        public var capturedAt: ContinuousClock.Instant

        public init(bytes: [UInt8], rtpTimestamp: Int64, isKeyframe: Bool, width: Int, height: Int,
                    capturedAt: ContinuousClock.Instant) {
            self.bytes = bytes
            self.rtpTimestamp = rtpTimestamp
            self.isKeyframe = isKeyframe
            self.width = width
            self.height = height
            self.capturedAt = capturedAt
        }
    }
}
