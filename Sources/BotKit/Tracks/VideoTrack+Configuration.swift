import Agent

extension VideoTrack {
    /// How a ``VideoTrack`` encodes. The defaults suit a bot sending a 640x480 to 720p stream to
    /// a conference: 1 Mbps VP8 at up to 30 frames per second, realtime speed.
    public struct Configuration: Sendable, Equatable {
        /// What to encode: `.vp8` (the default, libvpx), `.vp9` (libvpx) or `.h264` (libopenh264,
        /// constrained baseline, Annex B access units), or nil for the room's choice: a ``Bot``
        /// then offers every codec it can send (``VideoTrack/roomChoices``) and the room picks
        /// one (a Janus VideoRoom: the first of its list that we offer); until then, and outside
        /// a bot, the track encodes the first of them. Other codecs are refused.
        public var codec: MediaCodec?
        /// Bits per second that rate control aims for (constant bitrate).
        public var bitrate: Int
        /// The most frames per second the track encodes; frames pushed sooner than
        /// `1 / framesPerSecond` after the previous one are dropped, not encoded.
        public var framesPerSecond: Int
        /// Longest time between automatic keyframes. Receivers that join late or lose packets
        /// ask for one anyway (PLI/FIR, ``VideoTrack/requestKeyframe()``); this bounds the wait
        /// for those that cannot ask, such as a recording.
        public var keyframeInterval: Duration
        /// libvpx realtime speed (`cpu-used`), 1 (best) to 16 (fastest); VP9 uses 5 to 9 of it.
        /// libopenh264 has one realtime speed and ignores it.
        public var speed: Int
        /// Encoder threads. One is right for pictures up to 720p on a shared server.
        public var threads: Int

        /// Accepted bitrates: 10 kbps to 100 Mbps.
        public static let bitrateRange = 10_000...100_000_000
        public static let framesPerSecondRange = 1...120
        public static let speedRange = 1...16
        public static let threadsRange = 1...16
        /// Accepted keyframe intervals: from one frame up to an hour.
        public static let keyframeIntervalLimit = Duration.seconds(3600)

        public init(codec: MediaCodec? = .vp8, bitrate: Int = 1_000_000, framesPerSecond: Int = 30,
                    keyframeInterval: Duration = .seconds(3), speed: Int = 8, threads: Int = 1) {
            self.codec = codec
            self.bitrate = bitrate
            self.framesPerSecond = framesPerSecond
            self.keyframeInterval = keyframeInterval
            self.speed = speed
            self.threads = threads
        }

        /// Throws the first out-of-range setting.
        public func validate() throws(VideoTrackError) {
            if let codec, !VideoEncoder.codecs.contains(codec) {
                throw .invalidConfiguration("codec \(codec.name) is not one of \(VideoEncoder.codecs.map(\.name).joined(separator: ", "))")
            }
            try Self.validate(bitrate: bitrate)
            guard Self.framesPerSecondRange.contains(framesPerSecond) else {
                throw .invalidConfiguration("framesPerSecond \(framesPerSecond) is outside \(Self.framesPerSecondRange)")
            }
            guard keyframeInterval > .zero, keyframeInterval <= Self.keyframeIntervalLimit else {
                throw .invalidConfiguration("keyframeInterval \(keyframeInterval) is outside (0, \(Self.keyframeIntervalLimit)]")
            }
            guard Self.speedRange.contains(speed) else {
                throw .invalidConfiguration("speed \(speed) is outside \(Self.speedRange)")
            }
            guard Self.threadsRange.contains(threads) else {
                throw .invalidConfiguration("threads \(threads) is outside \(Self.threadsRange)")
            }
        }

        static func validate(bitrate: Int) throws(VideoTrackError) {
            guard bitrateRange.contains(bitrate) else {
                throw .invalidConfiguration("bitrate \(bitrate) bps is outside \(bitrateRange)")
            }
        }

        /// The keyframe interval in frames at the maximum frame rate, at least one.
        var keyframeIntervalFrames: Int {
            max(1, Int((keyframeInterval / .seconds(1) * Double(framesPerSecond)).rounded()))
        }

        /// The codec encoded before a room has chosen: the configured one, else the first the
        /// room may choose.
        var initialCodec: MediaCodec { codec ?? VideoTrack.roomChoices.first ?? .vp8 }

        /// The configured codec, or for the room's choice every one of ``VideoTrack/roomChoices``.
        var offeredCodecs: [MediaCodec] { codec.map { [$0] } ?? VideoTrack.roomChoices }

        /// A fresh encoder of `codec` with these settings (at the current bitrate).
        func makeEncoder(_ codec: MediaCodec) throws(VideoCodecError) -> VideoEncoder {
            try VideoEncoder(codec: codec, bitrate: bitrate, framesPerSecond: framesPerSecond, keyframeInterval: keyframeIntervalFrames,
                             speed: speed, threads: threads)
        }
    }
}
