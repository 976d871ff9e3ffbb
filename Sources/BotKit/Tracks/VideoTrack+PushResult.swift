extension VideoTrack {
    /// What ``VideoTrack/push(_:capturedAt:)`` did with a frame that was valid.
    public enum PushResult: Sendable, Equatable {
        /// Encoded and handed to the sink.
        case sent(EncodedFrame)
        /// Encoded, but no sink was set, so it went nowhere (counted in
        /// ``Statistics/framesDroppedWithoutSink``).
        case droppedWithoutSink
        /// Arrived sooner than `1 / framesPerSecond` after the previous encoded frame, so it was
        /// not encoded (counted in ``Statistics/framesDroppedForRate``).
        case droppedForRate
        /// The encoder produced no output for it (counted in ``Statistics/framesDroppedByEncoder``).
        case droppedByEncoder

        /// The frame handed to the sink, if one was.
        public var frame: EncodedFrame? {
            if case .sent(let frame) = self { frame } else { nil }
        }

        public var isDropped: Bool { frame == nil }
    }
}
