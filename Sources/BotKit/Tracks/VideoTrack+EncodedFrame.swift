import Agent

extension VideoTrack {
    /// One encoded frame out of the track, ready for the RTP packetizer of its ``codec``: a VP8
    /// frame (RFC 7741), a VP9 frame (RFC 9628) or an H.264 access unit in Annex B form
    /// (RFC 6184, the sender splits it into NAL units).
    public struct EncodedFrame: Sendable, Equatable {
        /// What the bytes are; a sender drops a frame of another codec than its track's.
        public var codec: MediaCodec
        /// The compressed frame, as one payload (not yet split into RTP packets).
        public var bytes: [UInt8]
        /// Unwrapped RTP time at 90 kHz: 0 at the first frame's capture time, then following
        /// capture time, strictly increasing. The sender adds its random initial offset.
        public var rtpTimestamp: Int64
        /// A keyframe decodes on its own (for H.264 an IDR, with its SPS and PPS in front); the
        /// first frame, the first at each new size or codec and the one after
        /// ``VideoTrack/requestKeyframe()`` are keyframes.
        public var isKeyframe: Bool
        public var width: Int
        public var height: Int
        /// When the picture was captured, as given to ``VideoTrack/push(_:capturedAt:)``.
        public var capturedAt: ContinuousClock.Instant

        public init(codec: MediaCodec, bytes: [UInt8], rtpTimestamp: Int64, isKeyframe: Bool, width: Int, height: Int,
                    capturedAt: ContinuousClock.Instant) {
            self.codec = codec
            self.bytes = bytes
            self.rtpTimestamp = rtpTimestamp
            self.isKeyframe = isKeyframe
            self.width = width
            self.height = height
            self.capturedAt = capturedAt
        }
    }
}
