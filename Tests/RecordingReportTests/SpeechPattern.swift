import Foundation

/// A known on/off pattern of a tone, as 48 kHz mono samples: what the detector must find.
struct SpeechPattern {
    /// Where the tone sounds (ms); silence elsewhere.
    let on: [(startMs: Int, endMs: Int)]
    let totalMs: Int
    var frequency = 440.0
    var amplitude = 6000.0
    /// Added everywhere: a steady hiss at about this peak (0: digital silence).
    var noise = 0.0

    var samples: [Int16] {
        var generator = SystemRandomNumberGenerator()
        return (0..<(totalMs * 48)).map { index in
            let ms = index / 48
            let sounding = on.contains { ms >= $0.startMs && ms < $0.endMs }
            var value = sounding ? amplitude * sin(2 * Double.pi * frequency * Double(index) / 48_000) : 0
            if noise > 0 { value += Double.random(in: -noise...noise, using: &generator) }
            return Int16(max(-32_768, min(32_767, value.rounded())))
        }
    }

    var onMs: Int { on.reduce(0) { $0 + $1.endMs - $1.startMs } }
}
