import Foundation
import Testing

@testable import agentd

/// Turns from synthetic voiced bursts at 16 kHz: a turn starts within two frames of the voice's
/// 40 ms minimum, pauses shorter than the end-of-turn silence stay inside it, and it ends that
/// silence after its last voiced frame.
@Suite struct TurnDetectorTests {
    /// `(voiced, ms)` pieces: a 200 Hz sine at -12 dBFS, or digital silence.
    static func audio(_ pieces: [(Bool, Int)]) -> [Int16] {
        var samples: [Int16] = []
        for (voiced, ms) in pieces {
            let count = ms * 16
            let start = samples.count
            samples += (0..<count).map { index in
                voiced ? Int16(8_000 * sin(2 * Double.pi * 200 * Double(start + index) / 16_000)) : 0
            }
        }
        return samples
    }

    /// Every event with the time (ms) of the frame that produced it.
    static func events(_ samples: [Int16], endOfTurnMs: Int) -> [(TurnDetector.Event, Int)] {
        var detector = TurnDetector(endOfTurnMs: endOfTurnMs)
        var events: [(TurnDetector.Event, Int)] = []
        for start in stride(from: 0, to: samples.count, by: TurnDetector.frameSamples) {
            let end = min(start + TurnDetector.frameSamples, samples.count)
            if let event = detector.process(samples[start..<end]) { events.append((event, end / 16)) }
        }
        return events
    }

    @Test func aShortPauseStaysInTheTurnAndTheTurnEndsAfterTheSilence() {
        let samples = Self.audio([(false, 500), (true, 800), (false, 200), (true, 600), (false, 1_500)])
        let events = Self.events(samples, endOfTurnMs: 500)
        #expect(events.count == 2, "\(events)")
        guard events.count == 2, case .speechStarted(let heard) = events[0].0, case .turnEnded(let start, let lastVoiced) = events[1].0 else { return }
        #expect((540...560).contains(heard), "voice from 500 ms is speech once 40 ms of it were heard: \(heard)")
        #expect(start == heard)
        #expect(lastVoiced == 2_100, "the last voiced frame ends with the second burst")
        #expect(events[1].1 == 2_600, "the turn ends 500 ms of silence later, at \(events[1].1)")
    }

    @Test func aPauseLongerThanTheEndOfTurnSilenceMakesTwoTurns() {
        let samples = Self.audio([(true, 400), (false, 700), (true, 400), (false, 800)])
        let kinds = Self.events(samples, endOfTurnMs: 500).map { event -> String in
            switch event.0 {
            case .speechStarted: "start@\(event.1)"
            case .turnEnded(_, let last): "end(\(last))@\(event.1)"
            }
        }
        #expect(kinds == ["start@40", "end(400)@900", "start@1140", "end(1500)@2000"], "\(kinds)")
    }

    @Test func aClickIsNoTurn() {
        let samples = Self.audio([(false, 300), (true, 20), (false, 1_000)])
        #expect(Self.events(samples, endOfTurnMs: 300).isEmpty, "20 ms of sound is under the detector's 40 ms minimum")
        // The same detector does see 60 ms, so the check above could have failed.
        #expect(Self.events(Self.audio([(false, 300), (true, 60), (false, 1_000)]), endOfTurnMs: 300).count == 2)
    }
}
