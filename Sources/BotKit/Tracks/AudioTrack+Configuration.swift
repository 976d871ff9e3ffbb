import Agent

extension AudioTrack {
    /// How a track encodes and how much it buffers. The defaults suit a bot that speaks.
    public struct Configuration: Sendable, Equatable {
        /// Opus bitrates worth asking for: below 6 kbit/s libopus cannot code even narrowband
        /// speech, and above 510 kbit/s it stops listening (RFC 6716 §2.1.1).
        public static let bitrateRange = 6_000...510_000
        /// From one packet's worth to a minute, which bounds the queue's memory (a minute of
        /// stereo is 23 MB of floats).
        public static let maxQueuedDurationRange = Duration.milliseconds(20)...Duration.seconds(60)

        /// Channels sent: 1 (mono) or 2 (stereo). Pushed PCM is mixed to this.
        public var channels: Int
        /// Target Opus bitrate in bits per second.
        public var bitrate: Int
        /// In-band forward error correction (RFC 6716 §2.1.7): each packet carries a low-rate
        /// copy of the one before. libopus spends bits on it only while
        /// ``expectedPacketLossPercent`` is above zero; feed it receiver reports through
        /// ``AudioTrack/setExpectedPacketLossPercent(_:)``.
        public var inbandFEC: Bool
        /// The loss the encoder plans for at the start, 0 ... 100.
        public var expectedPacketLossPercent: Int
        /// Discontinuous transmission: silence becomes 1-2 byte packets a pacer may skip.
        public var discontinuousTransmission: Bool
        /// Speech (`.voip`) or music (`.audio`); steers libopus's choice between SILK and CELT.
        public var application: OpusEncoder.Application
        /// How much PCM the track holds before a push waits for the pacer to drain it. Longer
        /// absorbs bursty producers; shorter makes ``AudioTrack/clear()`` matter less often.
        public var maxQueuedDuration: Duration

        public init(channels: Int = 1, bitrate: Int = 48_000, inbandFEC: Bool = true,
                    expectedPacketLossPercent: Int = 0, discontinuousTransmission: Bool = false,
                    application: OpusEncoder.Application = .voip,
                    maxQueuedDuration: Duration = .seconds(1)) {
            self.channels = channels
            self.bitrate = bitrate
            self.inbandFEC = inbandFEC
            self.expectedPacketLossPercent = expectedPacketLossPercent
            self.discontinuousTransmission = discontinuousTransmission
            self.application = application
            self.maxQueuedDuration = maxQueuedDuration
        }

        /// Throws the first setting that is out of range.
        public func validate() throws(AudioTrackError) {
            guard channels == 1 || channels == 2 else { throw .unsupportedChannels(channels) }
            guard Self.bitrateRange.contains(bitrate) else { throw .unsupportedBitrate(bitrate) }
            guard (0...100).contains(expectedPacketLossPercent) else {
                throw .unsupportedPacketLossPercent(expectedPacketLossPercent)
            }
            guard Self.maxQueuedDurationRange.contains(maxQueuedDuration) else {
                throw .unsupportedMaxQueuedDuration(maxQueuedDuration)
            }
        }

        var encoderConfiguration: OpusEncoder.Configuration {
            OpusEncoder.Configuration(
                channels: channels, application: application, bitrate: bitrate, inbandFEC: inbandFEC,
                expectedPacketLossPercent: expectedPacketLossPercent,
                discontinuousTransmission: discontinuousTransmission)
        }

        /// The queue's size in interleaved samples at 48 kHz.
        var queueCapacity: Int {
            let (seconds, attoseconds) = maxQueuedDuration.components
            let frames = Double(seconds) * Double(AudioTrack.sampleRate)
                + Double(attoseconds) * Double(AudioTrack.sampleRate) / 1e18
            return Int(frames.rounded()) * channels
        }
    }
}
