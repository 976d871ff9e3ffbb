import Foundation

/// A known on/off pattern of a tone, as 48 kHz mono samples: what the detector must find.
public struct SpeechPattern {
    /// Where the tone sounds (ms); silence elsewhere.
    public let on: [(startMs: Int, endMs: Int)]
    public let totalMs: Int
    public var frequency = 440.0
    public var amplitude = 6000.0
    /// Added everywhere: a steady hiss at about this peak (0: digital silence).
    public var noise = 0.0

    public var samples: [Int16] {
        var generator = SystemRandomNumberGenerator()
        return (0..<(totalMs * 48)).map { index in
            let ms = index / 48
            let sounding = on.contains { ms >= $0.startMs && ms < $0.endMs }
            var value = sounding ? amplitude * sin(2 * Double.pi * frequency * Double(index) / 48_000) : 0
            if noise > 0 { value += Double.random(in: -noise...noise, using: &generator) }
            return Int16(max(-32_768, min(32_767, value.rounded())))
        }
    }

    public init(on: [(startMs: Int, endMs: Int)], totalMs: Int, frequency: Double = 440, amplitude: Double = 6000, noise: Double = 0) {
        self.on = on
        self.totalMs = totalMs
        self.frequency = frequency
        self.amplitude = amplitude
        self.noise = noise
    }

    public var onMs: Int { on.reduce(0) { $0 + $1.endMs - $1.startMs } }
}
