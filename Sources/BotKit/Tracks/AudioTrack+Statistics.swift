extension AudioTrack {
    /// What a track has sent and dropped, for metrics and reports.
    public struct Statistics: Sendable, Equatable {
        /// Packets that carried pushed PCM.
        public var packetsWithAudio = 0
        /// Packets of pure silence (nothing was queued).
        public var silentPackets = 0
        /// Pushed audio dropped by ``AudioTrack/clear()``, queued or still waiting.
        public var clearedDuration = Duration.zero
        /// Frames libopus failed to encode, each sent as an empty frame instead.
        public var encodeFailures = 0
        /// Frames the capture processor refused, each encoded unprocessed.
        public var processorFailures = 0

        public init() {}

        mutating func countPacket(hasAudio: Bool) {
            if hasAudio { packetsWithAudio += 1 } else { silentPackets += 1 }
        }
    }

    public var statistics: Statistics { queue.withLock { $0.statistics } }
}
