import Testing

@testable import Agent

/// ``ActiveSpeakerTracker/ranking(atMs:)``: everyone talking, loudest first, with hysteresis.
@Suite struct ActiveSpeakerRankingTests {
    static let loud = 1_000_000.0  // about −10 dBFS
    static let silent = 0.0

    /// Feeds 10 ms blocks from `fromMs` to `toMs` (`levels` nil: that one sends nothing then) and
    /// records every change of the ranking, evaluated every 10 ms.
    static func run(_ tracker: inout ActiveSpeakerTracker, names: [String], fromMs: Int64, toMs: Int64,
                    levels: (String, Int64) -> Double?) -> [(ms: Int64, ranking: [String])] {
        var changes: [(Int64, [String])] = []
        var last: [String]?
        var ms = fromMs
        while ms < toMs {
            for name in names {
                guard let level = levels(name, ms) else { continue }
                tracker.add(level: level, atMs: ms, durationMs: 10, from: name, voiced: level > 0)
            }
            let ranking = tracker.ranking(atMs: ms + 10)
            if ranking != last { changes.append((ms + 10, ranking)) }
            last = ranking
            ms += 10
        }
        return changes
    }

    static func tracker() -> ActiveSpeakerTracker { ActiveSpeakerTracker(switchAfterMs: 0, pauseToleranceMs: 300) }

    @Test func alternatingTalkersLeadWithin300MsAndAPauseDoesNotFlip() {
        var tracker = Self.tracker()
        // Ann 0–2 s (with a 200 ms pause at 1 s), Bob 2–4 s, Ann again 4–5 s.
        let changes = Self.run(&tracker, names: ["ann", "bob"], fromMs: 0, toMs: 6000) { name, ms in
            let ann = (ms < 1000) || (ms >= 1200 && ms < 2000) || (ms >= 4000 && ms < 5000)
            let bob = ms >= 2000 && ms < 4000
            return (name == "ann" ? ann : bob) ? Self.loud : Self.silent
        }
        func leader(at ms: Int64) -> String? { changes.last { $0.ms <= ms }?.ranking.first }
        let annStart = changes.first { $0.ranking.first == "ann" }?.ms ?? .max
        #expect(annStart <= 100, "\(changes)")
        #expect((annStart..<2000).allSatisfy { leader(at: $0) == "ann" }, "the 200 ms pause flipped it: \(changes)")
        let bobLeads = changes.first { $0.ms >= 2000 && $0.ranking.first == "bob" }?.ms ?? .max
        #expect(bobLeads - 2000 <= 300, "bob leads \(bobLeads - 2000) ms after he starts: \(changes)")
        let annAgain = changes.first { $0.ms >= 4000 && $0.ranking.first == "ann" }?.ms ?? .max
        #expect(annAgain - 4000 <= 300, "\(changes)")
        // Ann stays in the list, behind Bob, only while her pause tolerance lasts.
        #expect(changes.contains { $0.ms > 2000 && $0.ms < 2400 && $0.ranking == ["bob", "ann"] } || bobLeads - 2000 <= 60, "\(changes)")
        #expect(leader(at: 2500) == "bob" && changes.last { $0.ms <= 2500 }?.ranking == ["bob"], "\(changes)")
        #expect(changes.last?.ranking == [], "nobody after 5.3 s: \(changes)")
        // The whole run changes only a handful of times: no flicker.
        #expect(changes.count <= 10, "\(changes.count) changes: \(changes)")
    }

    @Test func twoAtOnceSwapOnlyPastTheMargin() {
        var tracker = Self.tracker()
        // Ann talks from 0, Bob from 200 ms 3 dB louder (no swap), then from 1 s 12 dB louder (swap).
        let changes = Self.run(&tracker, names: ["ann", "bob"], fromMs: 0, toMs: 2000) { name, ms in
            if name == "ann" { return Self.loud }
            return ms < 200 ? Self.silent : ms < 1000 ? Self.loud * 2 : Self.loud * 16
        }
        let before = changes.last { $0.ms <= 1000 }?.ranking
        #expect(before == ["ann", "bob"], "3 dB does not reorder: \(changes)")
        #expect(changes.last?.ranking == ["bob", "ann"], "12 dB does: \(changes)")
        let swap = changes.first { $0.ranking == ["bob", "ann"] }?.ms ?? .max
        #expect(swap - 1000 <= 200, "\(changes)")
    }

    @Test func aClickNeverEntersAndATrackThatStopsSendingDropsOut() {
        var tracker = Self.tracker()
        let click = Self.run(&tracker, names: ["ann"], fromMs: 0, toMs: 1000) { _, ms in ms < 30 ? Self.loud : Self.silent }
        #expect(click.allSatisfy { $0.ranking.isEmpty }, "\(click)")
        // Bob talks then stops sending altogether (DTX, muted): out after the pause tolerance.
        let stopped = Self.run(&tracker, names: ["bob"], fromMs: 1000, toMs: 3000) { _, ms in ms < 2000 ? Self.loud : nil }
        #expect(stopped.contains { $0.ranking == ["bob"] }, "\(stopped)")
        let out = stopped.first { $0.ms > 1500 && $0.ranking.isEmpty }?.ms ?? .max
        #expect(out > 2000 && out <= 2400, "\(stopped)")
        // One who leaves is gone at once.
        var leaving = Self.tracker()
        _ = Self.run(&leaving, names: ["ann"], fromMs: 0, toMs: 500) { _, _ in Self.loud }
        leaving.remove("ann")
        #expect(leaving.ranking(atMs: 510).isEmpty)
    }
}
