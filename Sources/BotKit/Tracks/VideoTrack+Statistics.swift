import Agent

extension VideoTrack {
    /// A snapshot of a ``VideoTrack``'s counters, for logs and reports.
    public struct Statistics: Sendable, Equatable {
        /// Calls to ``VideoTrack/push(_:capturedAt:)`` on an open track, valid or not.
        public var framesPushed = 0
        /// Pushed frames refused with ``VideoTrackError/invalidFrame(_:)`` or another error.
        public var framesRejected = 0
        /// Pushed frames dropped because they came faster than the configured frame rate.
        public var framesDroppedForRate = 0
        /// Frames the encoder produced (each one sent or dropped for want of a sink).
        public var framesEncoded = 0
        /// Encoded frames handed to the sink.
        public var framesSent = 0
        /// Encoded frames dropped because no sink was set.
        public var framesDroppedWithoutSink = 0
        /// Frames given to the encoder that came back without output (libopenh264's rate
        /// control skips pictures when over budget; libvpx's realtime mode does not).
        public var framesDroppedByEncoder = 0
        /// Encoded keyframes, sent or not.
        public var keyframes = 0
        /// Calls to ``VideoTrack/requestKeyframe()``.
        public var keyframeRequests = 0
        /// Frames whose size differed from the previous encoded frame's (the encoder was
        /// re-created and started over with a keyframe). The first frame does not count.
        public var resolutionChanges = 0
        /// Frames encoded in another codec than the frame before (a room took one other than
        /// the first of ``VideoTrack/roomChoices``); the encoder was re-created and started with
        /// a keyframe. The first frame does not count.
        public var codecChanges = 0
        /// Compressed bytes of all encoded frames.
        public var bytes = 0
        /// Codec and size of the last encoded frame, nil before the first.
        public var codec: MediaCodec?
        public var width: Int?
        public var height: Int?

        public init() {}
    }
}
