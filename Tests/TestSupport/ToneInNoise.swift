import Foundation

/// A gated tone in deterministic white noise, and the SNR of a signal against that tone: for the
/// audio processor tests.
///
/// The tone is on for 300 ms of every 500 ms, like syllables: a noise suppressor learns noise
/// from what is stationary, so a tone that never stops would in time be taken for noise.
public struct ToneInNoise: Sendable {
    public let sampleRate: Int
    public let frequency: Double
    public let toneAmplitude: Double
    public let noiseAmplitude: Double

    public init(sampleRate: Int, frequency: Double = 1_000, toneAmplitude: Double = 6_000, noiseAmplitude: Double = 8_000) {
        self.sampleRate = sampleRate
        self.frequency = frequency
        self.toneAmplitude = toneAmplitude
        self.noiseAmplitude = noiseAmplitude
    }

    /// Whether the tone sounds at sample `index`.
    public func isOn(_ index: Int) -> Bool {
        (Double(index) / Double(sampleRate)).truncatingRemainder(dividingBy: 0.5) < 0.3
    }

    /// The clean tone's sine and cosine at `index`, zero where it is off.
    public func basis(_ index: Int) -> (sine: Double, cosine: Double) {
        guard isOn(index) else { return (0, 0) }
        let phase = 2 * Double.pi * frequency * Double(index) / Double(sampleRate)
        return (sin(phase), cos(phase))
    }

    /// `seconds` of tone plus uniform white noise, one channel (a fixed seed: the same every run).
    public func samples(seconds: Double, seed: UInt32 = 0x1234_5678) -> [Int16] {
        var state = seed
        return (0..<Int(seconds * Double(sampleRate))).map { index in
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = (Double(state >> 8) / 16_777_216 * 2 - 1) * noiseAmplitude
            let value = toneAmplitude * basis(index).sine + noise
            return Int16(max(-32_768, min(32_767, value.rounded())))
        }
    }

    /// The SNR in dB of `signal` over `range`: the tone's part is the least-squares fit of the
    /// clean tone's sine and cosine (so any phase or gain the processing gave it is the tone's),
    /// and everything else, the residual, is noise.
    public func snr(of signal: [Int16], over range: Range<Int>) -> Double {
        var (ss, cc, sc, xs, xc, xx) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        for index in range {
            let (sine, cosine) = basis(index)
            let x = Double(signal[index])
            ss += sine * sine
            cc += cosine * cosine
            sc += sine * cosine
            xs += x * sine
            xc += x * cosine
            xx += x * x
        }
        let determinant = ss * cc - sc * sc
        let a = (xs * cc - xc * sc) / determinant
        let b = (xc * ss - xs * sc) / determinant
        let tone = a * a * ss + b * b * cc + 2 * a * b * sc
        return 10 * log10(tone / (xx - tone))
    }
}
