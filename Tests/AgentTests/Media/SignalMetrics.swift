import Foundation

/// Test-signal generation and quality measures shared by the media codec tests.
enum SignalMetrics {
    /// A 440 Hz (or other) tone whose amplitude swells slowly. The swell makes the
    /// cross-correlation peak unique (a pure sine matches itself every period), so the codec delay
    /// can be measured, while the signal stays a tone.
    static func tone(frequency: Double = 440, seconds: Double, sampleRate: Int = 48_000,
                     amplitude: Double = 12_000, phase: Double = 0) -> [Int16] {
        let count = Int(seconds * Double(sampleRate))
        return (0..<count).map { index in
            let time = Double(index) / Double(sampleRate)
            let envelope = 0.75 + 0.25 * sin(2 * Double.pi * 2.5 * time)
            return Int16(amplitude * envelope * sin(2 * Double.pi * frequency * time + phase))
        }
    }

    /// `signal` with its first `seconds` replaced by deterministic white noise. A tone alone
    /// correlates with itself every period, so a codec's delay cannot be read from it; the noise
    /// burst gives the cross-correlation a single peak at the true delay.
    static func withNoiseBurst(_ signal: [Int16], seconds: Double, sampleRate: Int = 48_000,
                               amplitude: Int32 = 8_000) -> [Int16] {
        var output = signal
        var state: UInt32 = 0x1234_5678
        for index in 0..<min(signal.count, Int(seconds * Double(sampleRate))) {
            state = state &* 1_664_525 &+ 1_013_904_223
            output[index] = Int16(Int32(state >> 16) % (2 * amplitude + 1) - amplitude)
        }
        return output
    }

    /// Interleaves two mono channels.
    static func interleave(_ left: [Int16], _ right: [Int16]) -> [Int16] {
        var out: [Int16] = []
        out.reserveCapacity(left.count * 2)
        for index in 0..<min(left.count, right.count) { out.append(left[index]); out.append(right[index]) }
        return out
    }

    /// One channel out of interleaved samples.
    static func channel(_ samples: [Int16], _ channel: Int, of channels: Int) -> [Int16] {
        stride(from: channel, to: samples.count, by: channels).map { samples[$0] }
    }

    /// The lag (0 ..< maxLag) at which `output` best matches `reference`, by normalized
    /// cross-correlation over `window` samples starting at `start`. Normalizing by the output's
    /// energy keeps a louder stretch of output from winning over the right alignment.
    static func bestLag(reference: [Int16], output: [Int16], start: Int, window: Int, maxLag: Int) -> Int {
        var best = 0
        var bestCorrelation = -Double.infinity
        for lag in 0..<maxLag where start + lag + window <= output.count {
            var product = 0.0
            var energy = 0.0
            for index in start..<(start + window) {
                let sample = Double(output[index + lag])
                product += Double(reference[index]) * sample
                energy += sample * sample
            }
            let correlation = energy > 0 ? product / energy.squareRoot() : 0
            if correlation > bestCorrelation { bestCorrelation = correlation; best = lag }
        }
        return best
    }

    /// Signal-to-noise ratio in dB of `output` (delayed by `lag`) against `reference` over the
    /// window. Silence or garbage gives about 0 dB or less.
    static func snr(reference: [Int16], output: [Int16], lag: Int, start: Int, window: Int) -> Double {
        var signal = 0.0
        var noise = 0.0
        for index in start..<(start + window) {
            let wanted = Double(reference[index])
            let error = wanted - Double(output[index + lag])
            signal += wanted * wanted
            noise += error * error
        }
        return noise == 0 ? .infinity : 10 * log10(signal / noise)
    }

    static func rms(_ samples: [Int16]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}
