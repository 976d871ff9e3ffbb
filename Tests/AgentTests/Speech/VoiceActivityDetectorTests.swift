import Foundation
import TestSupport
import Testing

@testable import Agent

@Suite(.offThePool) struct VoiceActivityDetectorTests {
    static func detect(_ samples: [Int16], chunk: Int = 960) -> VoiceActivityDetector {
        var detector = VoiceActivityDetector(sampleRate: 48_000)
        var start = 0
        while start < samples.count {
            detector.process(samples[start..<min(samples.count, start + chunk)])
            start += chunk
        }
        detector.finish()
        return detector
    }

    static func expectEdges(_ found: [TimelineSpan], _ expected: [(startMs: Int, endMs: Int)], within toleranceMs: Int64 = 50,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(found.count == expected.count, "found \(found)", sourceLocation: sourceLocation)
        for (span, want) in zip(found, expected) {
            #expect(abs(span.startMs - Int64(want.startMs)) <= toleranceMs, "start \(span.startMs) for \(want.startMs)", sourceLocation: sourceLocation)
            #expect(abs(span.endMs - Int64(want.endMs)) <= toleranceMs, "end \(span.endMs) for \(want.endMs)", sourceLocation: sourceLocation)
        }
    }

    @Test("a tone switched on and off gives its intervals within 50 ms, and their total")
    func toneOnOffPattern() {
        let pattern = SpeechPattern(on: [(500, 2000), (2600, 4100), (5000, 5600), (7250, 9900)], totalMs: 10_000)
        let detector = Self.detect(pattern.samples)
        Self.expectEdges(detector.intervals, pattern.on)
        #expect(abs(detector.speakingMs - Int64(pattern.onMs)) <= 100, "\(detector.speakingMs) ms for \(pattern.onMs)")
        #expect(!detector.truncated)
    }

    @Test("the same over steady hiss at about -60 dBFS")
    func toneOverNoise() {
        let pattern = SpeechPattern(on: [(1000, 3000), (4000, 4500), (6000, 9000)], totalMs: 10_000, noise: 60)
        Self.expectEdges(Self.detect(pattern.samples).intervals, pattern.on)
    }

    @Test("a pause under the hangover joins two bursts, a longer one splits them; a click is no speech")
    func hangoverAndClicks() {
        let joined = SpeechPattern(on: [(1000, 2000), (2200, 3000)], totalMs: 4000)
        Self.expectEdges(Self.detect(joined.samples).intervals, [(1000, 3000)])
        let split = SpeechPattern(on: [(1000, 2000), (2400, 3000)], totalMs: 4000)
        Self.expectEdges(Self.detect(split.samples).intervals, [(1000, 2000), (2400, 3000)])
        let click = SpeechPattern(on: [(1000, 1020)], totalMs: 2000)
        #expect(Self.detect(click.samples).intervals.isEmpty)
    }

    @Test("silence and hiss below the threshold are never speech")
    func quietIsNotSpeech() {
        #expect(Self.detect([Int16](repeating: 0, count: 96_000)).intervals.isEmpty)
        let hiss = SpeechPattern(on: [], totalMs: 3000, noise: 100)  // about -55 dBFS RMS
        #expect(Self.detect(hiss.samples).speakingMs == 0)
    }

    @Test("speech running to the end of the audio is closed there; chunk sizes do not matter")
    func speechToTheEnd() {
        let pattern = SpeechPattern(on: [(250, 3000)], totalMs: 3000)
        for chunk in [1, 333, 4800] {
            Self.expectEdges(Self.detect(pattern.samples, chunk: chunk).intervals, pattern.on)
        }
    }

    @Test("past maxIntervals the list stops but the total counts everything")
    func intervalCap() {
        var settings = VoiceActivityDetector.Settings()
        settings.maxIntervals = 2
        var detector = VoiceActivityDetector(sampleRate: 48_000, settings: settings)
        detector.process(SpeechPattern(on: [(0, 500), (1000, 1500), (2000, 2500)], totalMs: 3000).samples)
        detector.finish()
        #expect(detector.intervals.count == 2)
        #expect(detector.truncated)
        #expect(abs(detector.speakingMs - 1500) <= 60)
    }
}

extension VoiceActivityDetectorTests {
    @Test("loud broadband noise is no speech, a tone at the same level is; isSpeaking holds through a 200 ms pause")
    func noiseIsNotSpeechAndIsSpeakingHasAHangover() {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<48_000).map { _ in Int16.random(in: -9000...9000, using: &generator) }  // about -14 dBFS
        #expect(Self.detect(noise).speakingMs == 0)
        let tone = SpeechPattern(on: [(0, 1000)], totalMs: 1000, amplitude: 5000)
        #expect(Self.detect(tone.samples).speakingMs >= 900)

        var detector = VoiceActivityDetector(sampleRate: 16_000)
        let talk = SpeechPattern(on: [(0, 500), (700, 1000)], totalMs: 1500).samples.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        var states: [(ms: Int64, speaking: Bool)] = []
        for start in stride(from: 0, to: talk.count, by: 160) {
            detector.process(talk[start..<min(talk.count, start + 160)])
            states.append((detector.processedMs, detector.isSpeaking))
        }
        #expect(states.first { $0.speaking }.map { $0.ms <= 60 } == true)
        let held = states.filter { $0.ms > 100 && $0.ms <= 1000 }.allSatisfy { $0.speaking }
        #expect(held, "the 200 ms pause ended the utterance")
        let end = states.first { $0.ms > 1000 && !$0.speaking }?.ms ?? .max
        #expect(end > 1250 && end <= 1350, "speaking until the 300 ms hangover ends, not \(end)")
    }
}
