import Testing

@testable import Agent

@Suite struct ActiveSpeakerTrackerTests {
    static let loud = 1_000_000.0  // about −10 dBFS
    static let quiet = 100.0

    /// Feeds 20 ms blocks of everyone's level from `fromMs` to `toMs`, re-evaluating every 20 ms
    /// like the compositor does per frame, and returns who held the tile at each step.
    static func run(_ tracker: inout ActiveSpeakerTracker, fromMs: Int64, toMs: Int64,
                    levels: (String, Int64) -> Double) -> [(ms: Int64, speaker: String?)] {
        var held: [(Int64, String?)] = []
        var ms = fromMs
        while ms < toMs {
            for name in ["ann", "bob"] { tracker.add(level: levels(name, ms), atMs: ms, durationMs: 20, from: name) }
            held.append((ms, tracker.update(atMs: ms + 20)))
            ms += 20
        }
        return held
    }

    @Test func whoeverSpeaksHoldsTheTileWithinASecond() {
        var tracker = ActiveSpeakerTracker()
        // Ann talks 0...3 s, then Bob from 3 s.
        let held = Self.run(&tracker, fromMs: 0, toMs: 6000) { name, ms in
            (name == "ann" && ms < 3000) || (name == "bob" && ms >= 3000) ? Self.loud : Self.quiet
        }
        let annFirst = held.first { $0.speaker == "ann" }?.ms
        #expect(annFirst.map { $0 < 1000 } == true, "ann from \(String(describing: annFirst))")
        let bobFirst = held.first { $0.speaker == "bob" }?.ms
        #expect(bobFirst.map { $0 >= 3000 && $0 < 4000 } == true, "bob from \(String(describing: bobFirst))")
        // No flicker: one change from ann to bob.
        let changes = zip(held, held.dropFirst()).filter { $0.speaker != $1.speaker }
        #expect(changes.count == 2, "nil→ann→bob, got \(changes.map { ($1.ms, $1.speaker ?? "-") })")
    }

    @Test func theSpeakerKeepsTheTileThroughAPause() {
        var tracker = ActiveSpeakerTracker()
        // Ann talks with a 300 ms pause every second; Bob talks all along from 1.5 s.
        let held = Self.run(&tracker, fromMs: 0, toMs: 8000) { name, ms in
            switch name {
            case "ann": ms % 1000 < 700 ? Self.loud : Self.quiet
            default: ms >= 1500 ? Self.loud : Self.quiet
            }
        }
        let fromOneSecond = held.filter { $0.ms >= 1000 }
        #expect(fromOneSecond.allSatisfy { $0.speaker == "ann" }, "\(fromOneSecond.filter { $0.speaker != "ann" }.prefix(3).map(\.ms))")
    }

    @Test func aLeaverGivesUpTheTileAndSilenceAloneChangesNothing() {
        var tracker = ActiveSpeakerTracker()
        _ = Self.run(&tracker, fromMs: 0, toMs: 1000) { name, _ in name == "ann" ? Self.loud : Self.quiet }
        #expect(tracker.speaker == "ann")
        // Everybody silent: Ann keeps it.
        _ = Self.run(&tracker, fromMs: 1000, toMs: 5000) { _, _ in Self.quiet }
        #expect(tracker.speaker == "ann")
        tracker.remove("ann")
        #expect(tracker.speaker == nil)
        #expect(tracker.update(atMs: 5000) == nil)
    }

    @Test func levelIsTheMeanSquare() {
        #expect(ActiveSpeakerTracker.level(of: [3, -3, 3, -3]) == 9)
        #expect(ActiveSpeakerTracker.level(of: []) == 0)
    }
}
