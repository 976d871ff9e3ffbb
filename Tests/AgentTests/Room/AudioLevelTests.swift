import Foundation
import Testing

@testable import Agent

@Suite struct AudioLevelTests {
    typealias Media = RemoteTrackTestMedia

    @Test func levelScalesFollowRFC6464() {
        // A full-scale sine has mean square 1/2: −3.01 dBov.
        let sine = AudioLevel(meanSquare: 0.5)
        #expect(abs(sine.dBov + 3.0103) < 0.001)
        #expect(sine.rfc6464 == 3)
        #expect(abs(sine.linear - 0.7071) < 0.001)
        #expect(AudioLevel(meanSquare: 1).rfc6464 == 0)
        #expect(AudioLevel(meanSquare: 0) == .silence)
        #expect(AudioLevel.silence.rfc6464 == 127 && AudioLevel.silence.linear == 0)
        #expect(AudioLevel(meanSquare: 1e-20).rfc6464 == 127)
        #expect(AudioLevel(meanSquare: .nan) == .silence)
        #expect(AudioLevel(dBov: 6).dBov == 0)
        // −20 dBov is a tenth of full scale.
        #expect(abs(AudioLevel(dBov: -20).linear - 0.1) < 1e-9)
    }

    @Test func meterWindowsAndTotals() {
        let meter = AudioLevelMeter(window: .milliseconds(100))
        let quiet = [Float](repeating: 0.1, count: 480)          // 10 ms at 48 kHz: −20 dBov
        for _ in 0..<9 { meter.add(quiet, channels: 1, sampleRate: 48_000) }
        #expect(meter.current == .silence, "no whole window yet")
        meter.add(quiet, channels: 1, sampleRate: 48_000)
        #expect(meter.current.rfc6464 == 20)
        let mark = meter.totals
        let loud = [Float](repeating: 0.5, count: 960)             // stereo, 10 ms: −6 dBov
        for _ in 0..<10 { meter.add(loud, channels: 2, sampleRate: 48_000) }
        #expect(meter.current.rfc6464 == 6)
        #expect(abs(meter.totals.seconds - 0.2) < 1e-9)
        // Each reader takes the level over its own interval from two snapshots.
        #expect(AudioLevelMeter.level(from: mark, to: meter.totals).rfc6464 == 6)
        #expect(AudioLevelMeter.level(from: AudioLevelMeter.Totals(), to: meter.totals).rfc6464 == 9, "mean square (0.01 + 0.25) / 2: −8.9 dBov")
        meter.reset()
        #expect(meter.current == .silence)
        #expect(abs(meter.totals.seconds - 0.2) < 1e-9, "totals keep counting across a reset")
    }

    @Test func sinkLevelOfSilenceAndFullScaleTone() throws {
        let format = try RemoteAudioFormat(sampleRate: 16_000, frameDuration: .milliseconds10)
        let silentSink = try RemoteAudioSink(format: format) { _ in }
        for packet in try Media.opusPackets(count: 25, channels: 1, tone: { _, _ in 0 }) { silentSink.receive(packet) }
        let loudSink = try RemoteAudioSink(format: format) { _ in }
        let fullScale = Media.sine(frequency: 440, amplitude: 32_767)
        for packet in try Media.opusPackets(count: 25, channels: 1, tone: fullScale) { loudSink.receive(packet) }
        let silent = silentSink.level.current
        let loud = loudSink.level.current
        print("level: silence \(silent) (\(silent.rfc6464)), full-scale 440 Hz \(loud) (\(loud.rfc6464))")
        #expect(silent.rfc6464 >= 90)
        #expect((2...4).contains(loud.rfc6464), "a full-scale sine is about −3 dBov")
        #expect(loud.linear > 0.6 && silent.linear < 0.001)
    }
}
