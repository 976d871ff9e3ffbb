import Testing
import TestSupport

@Suite struct ToneInNoiseTests {
    @Test func findsTheGatingInADelayedSignalAndMeasuresItsSNR() {
        let signal = ToneInNoise(sampleRate: 48_000)
        let clean = ToneInNoise(sampleRate: 48_000, noiseAmplitude: 0).samples(seconds: 4)
        let noisy = signal.samples(seconds: 4)
        // 137 ms of silence first, as a recording that began before the tone does.
        let delayed = [Int16](repeating: 0, count: 137 * 48) + noisy
        let window = 48_000..<(3 * 48_000)
        let delay = signal.gatingDelay(in: delayed, over: window)
        #expect(delay == 137 * 48)
        let aligned = signal.snr(of: delayed, over: window, delay: delay)
        let misaligned = signal.snr(of: delayed, over: window)
        print("tone in noise: delay \(delay), SNR \(aligned) dB aligned, \(misaligned) dB not; clean \(signal.snr(of: clean, over: window)) dB")
        #expect(abs(aligned - signal.snr(of: noisy, over: window)) < 0.2)
        #expect(misaligned < aligned - 1)
        #expect(signal.snr(of: clean, over: window) > 40)
    }
}
