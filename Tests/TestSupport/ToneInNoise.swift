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

    /// The gating's period, in samples: the tone and its gating repeat exactly every 500 ms
    /// (a whole number of cycles of a tone on a whole number of hertz).
    public var period: Int { sampleRate / 2 }

    /// Whether the tone sounds at sample `index`.
    public func isOn(_ index: Int) -> Bool {
        let position = index % period
        return (position < 0 ? position + period : position) < period * 3 / 5
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
    public func snr(of signal: [Int16], over range: Range<Int>, delay: Int = 0) -> Double {
        var (ss, cc, sc, xs, xc, xx) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        for index in range {
            let (sine, cosine) = basis(index - delay)
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

    /// Where the gating lies in `signal` (a recording that started at some unknown point of it),
    /// as a delay in samples modulo ``period``, to 1 ms: the tone's power in each millisecond,
    /// folded over the period, is largest across the on-stretch at the right delay.
    public func gatingDelay(in signal: [Int16], over range: Range<Int>) -> Int {
        let block = sampleRate / 1_000
        let blocksPerPeriod = period / block
        var folded = [Double](repeating: 0, count: blocksPerPeriod)
        var start = range.lowerBound
        while start + block <= range.upperBound {
            var (xs, xc) = (0.0, 0.0)
            for index in start..<(start + block) {
                let phase = 2 * Double.pi * frequency * Double(index) / Double(sampleRate)
                xs += Double(signal[index]) * sin(phase)
                xc += Double(signal[index]) * cos(phase)
            }
            folded[(start / block) % blocksPerPeriod] += xs * xs + xc * xc
            start += block
        }
        let onBlocks = blocksPerPeriod * 3 / 5
        var best = (delay: 0, power: -Double.infinity)
        for shift in 0..<blocksPerPeriod {
            let power = (0..<onBlocks).reduce(0.0) { $0 + folded[(shift + $1) % blocksPerPeriod] }
            if power > best.power { best = (shift, power) }
        }
        return best.delay * block
    }
}
