import Foundation

/// A fixed gain followed by a limiter at a ceiling, in Swift: for a bot's voice that comes out
/// too quiet, or to keep a hot source from clipping.
///
/// The gain is applied in floating point and the result never wraps: whatever the gain, no
/// sample leaves beyond ±ceiling. ``Limit/hard`` clips at the ceiling; ``Limit/soft`` passes
/// samples unchanged up to 6 dB below the ceiling and bends louder ones smoothly towards it
/// (a tanh knee, which keeps the slope continuous and so adds less audible distortion than a
/// clip). No look-ahead and no memory: each sample is mapped on its own, so there is no delay.
public struct GainLimiter: AudioProcessor {
    /// How samples above the ceiling are brought down.
    public enum Limit: Sendable, Equatable {
        /// Clip at the ceiling.
        case hard
        /// Bend towards the ceiling from 6 dB below it; never reaches beyond it.
        case soft
    }

    public struct Settings: Sendable, Equatable {
        /// Beyond ±40 dB a gain is a mistake, not a level adjustment (40 dB turns a 1-bit
        /// dither into audible noise; -60 dB is near silence).
        public static let gainRange = -60.0...40.0
        /// The ceiling in dB below full scale.
        public static let ceilingRange = -40.0...0.0

        public var gainDecibels: Double
        public var ceilingDecibels: Double
        public var limit: Limit

        public init(gainDecibels: Double = 0, ceilingDecibels: Double = -1, limit: Limit = .soft) {
            self.gainDecibels = gainDecibels
            self.ceilingDecibels = ceilingDecibels
            self.limit = limit
        }

        /// Throws the first setting out of range (NaN is out of every range).
        public func validate() throws(AudioProcessorError) {
            try AudioProcessorError.check("gain (dB)", gainDecibels, in: Self.gainRange)
            try AudioProcessorError.check("ceiling (dBFS)", ceilingDecibels, in: Self.ceilingRange)
        }
    }

    public let format: AudioProcessingFormat
    public let settings: Settings
    private let gain: Double
    /// The largest magnitude let out, in Int16 steps.
    let ceiling: Double
    /// Where the soft knee starts: 6 dB below the ceiling.
    private let knee: Double

    public init(format: AudioProcessingFormat, settings: Settings) throws(AudioProcessorError) {
        try settings.validate()
        self.format = format
        self.settings = settings
        gain = Self.linear(decibels: settings.gainDecibels)
        ceiling = (Double(Int16.max) * Self.linear(decibels: settings.ceilingDecibels)).rounded(.down)
        knee = ceiling / 2
    }

    public mutating func process(_ samples: inout [Int16]) throws(AudioProcessorError) {
        try checkFrameLength(of: samples)
        for index in samples.indices {
            samples[index] = limited(Double(samples[index]) * gain)
        }
    }

    /// One amplified sample brought within the ceiling and rounded; the final clamp holds even
    /// where rounding or the knee's arithmetic would land a hair past it.
    private func limited(_ value: Double) -> Int16 {
        var magnitude = abs(value)
        if settings.limit == .soft, magnitude > knee {
            let room = ceiling - knee
            magnitude = knee + room * tanh((magnitude - knee) / room)
        }
        magnitude = min(magnitude.rounded(), ceiling)
        return Int16(value < 0 ? -magnitude : magnitude)
    }

    static func linear(decibels: Double) -> Double {
        pow(10, decibels / 20)
    }
}
