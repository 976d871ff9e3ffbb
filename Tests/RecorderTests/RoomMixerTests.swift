import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

@Suite(.offThePool) struct RoomMixerTests {
    /// Power of `frequency` in `samples` (Goertzel), normalized so a full-scale sine gives ~0.25.
    static func power(of frequency: Double, in samples: ArraySlice<Int16>) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / 48_000)
        var previous = 0.0
        var beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) / 32768 + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        let count = Double(samples.count)
        return power / (count * count)
    }

    @Test func twoTonesAtDifferentStartsMixOnTheTimeline() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let output = try TimelineWAVWriter(path: directory.file("mix.wav"))
        let mixer = try RoomMixer(output: output)
        let a = tone(frequency: 440, count: 96_000)  // 0 ..< 2 s
        let b = tone(frequency: 660, count: 96_000)  // 0.5 ..< 2.5 s
        mixer.join("a", atSample: 0)
        mixer.join("b", atSample: 24_000)
        // Pushed in 20 ms blocks, "a" running 100 ms ahead of "b", as two network paths would.
        var nextA = 0
        var nextB = 0
        for now in stride(from: 0, to: 150_000, by: 960) {
            while nextA < a.count, nextA <= now + 4800 {
                try mixer.push(Array(a[nextA..<(nextA + 960)]), atSample: Int64(nextA), from: "a")
                nextA += 960
            }
            while nextB < b.count, 24_000 + nextB <= now {
                try mixer.push(Array(b[nextB..<(nextB + 960)]), atSample: Int64(24_000 + nextB), from: "b")
                nextB += 960
            }
            if nextA == a.count { try mixer.leave("a") }
            if nextB == b.count { try mixer.leave("b") }
            try mixer.advance(toSample: Int64(now))
        }
        try mixer.finish(atSample: 144_000)
        #expect(mixer.samplesDroppedLate == 0)
        #expect(mixer.samplesClipped == 0)

        let reader = try SoundFileReader(path: output.path)
        let mix = try reader.readAll()
        #expect(mix.count == 144_000)
        // Exact: the sum of both tones, each at its own place on the timeline.
        for index in [0, 12_345, 24_000, 50_001, 95_999, 96_000, 119_999] {
            let fromA = index < 96_000 ? Int(a[index]) : 0
            let fromB = index >= 24_000 && index < 120_000 ? Int(b[index - 24_000]) : 0
            #expect(Int(mix[index]) == fromA + fromB, "sample \(index)")
        }
        #expect(mix[120_000...].allSatisfy { $0 == 0 })

        let onlyA = mix[4800..<19_200], both = mix[48_000..<72_000], onlyB = mix[100_000..<115_000]
        let amplitude = 8000.0 / 32768
        let expected = amplitude * amplitude / 4  // a sine of amplitude A has Goertzel power A²/4
        #expect(abs(Self.power(of: 440, in: onlyA) - expected) < expected * 0.05)
        #expect(Self.power(of: 660, in: onlyA) < expected * 0.001)
        #expect(abs(Self.power(of: 440, in: both) - expected) < expected * 0.05)
        #expect(abs(Self.power(of: 660, in: both) - expected) < expected * 0.05)
        #expect(Self.power(of: 550, in: both) < expected * 0.001)
        #expect(Self.power(of: 440, in: onlyB) < expected * 0.001)
        #expect(abs(Self.power(of: 660, in: onlyB) - expected) < expected * 0.05)
    }

    @Test func sumsSaturateInsteadOfWrapping() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let output = try TimelineWAVWriter(path: directory.file("mix.wav"))
        let mixer = try RoomMixer(output: output)
        for id in ["a", "b", "c"] { mixer.join(id, atSample: 0) }
        let loud: [Int16] = [Int16](repeating: 30_000, count: 480) + [Int16](repeating: -30_000, count: 480)
        try mixer.push(loud, atSample: 0, from: "a")
        try mixer.push(loud, atSample: 0, from: "b")
        try mixer.push([Int16](repeating: 1000, count: 960), atSample: 0, from: "c")
        try mixer.finish(atSample: 960)
        let mix = try SoundFileReader(path: output.path).readAll()
        // 30000 + 30000 + 1000 = 61000 and -30000 - 30000 + 1000 = -59000, both out of range.
        #expect(mix.count == 960)
        #expect(mix[..<480].allSatisfy { $0 == .max })
        #expect(mix[480...].allSatisfy { $0 == .min })
        #expect(mixer.samplesClipped == 960)
    }

    @Test func waitsForEveryActiveParticipantUpToTheLatencyBudget() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let output = try TimelineWAVWriter(path: directory.file("mix.wav"))
        let mixer = try RoomMixer(output: output, blockSamples: 960, maxLatencySamples: 9600)
        mixer.join("a", atSample: 0)
        mixer.join("b", atSample: 0)  // joined, but sends nothing
        let block = [Int16](repeating: 100, count: 960)
        for index in 0..<5 { try mixer.push(block, atSample: Int64(index * 960), from: "a") }  // 100 ms
        #expect(mixer.emitted == 0)  // still waiting for "b"
        for index in 5..<15 { try mixer.push(block, atSample: Int64(index * 960), from: "a") }  // 300 ms
        #expect(mixer.emitted == 14_400 - 9600)  // "a" is 200 ms ahead: the oldest 100 ms goes out
        try mixer.advance(toSample: 19_200)  // the clock at 400 ms
        #expect(mixer.emitted == 9600)
        try mixer.leave("b")  // nothing to wait for but "a", which delivered 300 ms
        #expect(mixer.emitted == 14_400)
        #expect(mixer.activeParticipants == ["a"])
        // A late packet from "b" (for 0 ms) is not mixed into what already went out.
        try mixer.push(block, atSample: 0, from: "b")
        #expect(mixer.samplesDroppedLate == 0)  // "b" left: ignored altogether
        mixer.join("b", atSample: 0)
        try mixer.push(block, atSample: 0, from: "b")
        #expect(mixer.samplesDroppedLate == 960)
        #expect(mixer.samplesOverlapped == 0)
        try mixer.finish(atSample: 14_400)
        let mix = try SoundFileReader(path: output.path).readAll()
        #expect(mix == [Int16](repeating: 100, count: 14_400))
    }

    @Test func lateJoinerHoldsNothingBeforeItsJoinAndDuplicatesAreNotAddedTwice() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let output = try TimelineWAVWriter(path: directory.file("mix.wav"))
        let mixer = try RoomMixer(output: output, blockSamples: 960, maxLatencySamples: 96_000)
        mixer.join("a", atSample: 0)
        mixer.join("late", atSample: 48_000)
        for index in 0..<60 {
            try mixer.push([Int16](repeating: 10, count: 960), atSample: Int64(index * 960), from: "a")
        }
        #expect(mixer.emitted == 48_000)  // up to where "late" joins, not beyond
        // "a"'s last block again (a duplicate), still in the window: it must not count twice.
        try mixer.push([Int16](repeating: 10, count: 960), atSample: 56_640, from: "a")
        #expect(mixer.samplesOverlapped == 960)
        try mixer.push([Int16](repeating: 5, count: 960), atSample: 48_000, from: "late")
        #expect(mixer.emitted == 48_960)
        #expect(mixer.samplesDroppedLate == 0)
        try mixer.finish(atSample: 57_600)
        let mix = try SoundFileReader(path: output.path).readAll()
        #expect(mix.count == 57_600)
        #expect(mix[0..<48_000].allSatisfy { $0 == 10 })
        #expect(mix[48_000..<48_960].allSatisfy { $0 == 15 })
        #expect(mix[48_960...].allSatisfy { $0 == 10 })
    }

    @Test func clockAloneProducesSilenceWhenNobodyIsThere() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let output = try TimelineWAVWriter(path: directory.file("mix.wav"))
        let mixer = try RoomMixer(output: output, blockSamples: 960, maxLatencySamples: 9600)
        try mixer.advance(toSample: 48_000)
        #expect(mixer.emitted == 48_000 - 9600)
        try mixer.finish(atSample: 48_500)
        #expect(output.position == 48_500)
        #expect(throws: SoundFileError.self) { try mixer.push([1], atSample: 48_500, from: "a") }
    }
}
