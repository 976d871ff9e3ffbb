import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// `--segment` in the timeline WAV: parts cut sample-exactly, each a WAV of its own whose sample
/// 0 is its start, together the same samples as one file; the end cut across a boundary.
@Suite(.offThePool) struct TimelineWAVWriterSegmentTests {
    /// A ramp that never repeats within the test: sample i holds i mod 30000.
    static func ramp(from start: Int64, count: Int) -> [Int16] {
        (0..<count).map { Int16((start + Int64($0)) % 30_000) }
    }

    @Test("12 s in 20 ms blocks at 5 s segments: 3 parts of 5, 5 and 2 s holding the timeline in order")
    func partsHoldTheTimeline() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try TimelineWAVWriter(path: directory.file("alice.wav"), segmentSamples: 240_000)
        // Starts at 1 s (a late join: silence before), one 1.5 s gap in part 2.
        var sample: Int64 = 48_000
        while sample < 576_000 {
            if sample == 336_000 { sample += 72_000 }
            try writer.write(Self.ramp(from: sample, count: 960), atSample: sample)
            sample += 960
        }
        try writer.finish(atSample: 576_000)
        #expect(writer.parts.map(\.startSample) == [0, 240_000, 480_000])
        #expect(writer.parts.map { ($0.path as NSString).lastPathComponent } == ["alice.wav", "alice.part2.wav", "alice.part3.wav"])
        var joined: [Int16] = []
        for (index, part) in writer.parts.enumerated() {
            let (info, samples) = try TimelineWAVWriterTests.readBack(part.path)
            #expect(info.sampleRate == 48_000)
            #expect(samples.count == [240_000, 240_000, 96_000][index], "part \(index + 1)")
            joined += samples
        }
        // Silence before the join and in the gap, the ramp everywhere else, sample for sample.
        for position in stride(from: 0, to: 576_000, by: 997) {
            let silent = position < 48_000 || (336_000..<408_000).contains(position)
            let expected = silent ? 0 : Int16(position % 30_000)
            #expect(joined[position] == expected, "sample \(position)")
        }
        #expect(writer.gaps == [0..<48_000, 336_000..<408_000])
    }

    @Test("ending on a boundary with media in flight past it: no part after the end")
    func endOnABoundary() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try TimelineWAVWriter(path: directory.file("bob.wav"), segmentSamples: 48_000)
        try writer.write(Self.ramp(from: 0, count: 100_000), atSample: 0)
        #expect(writer.parts.count == 3)
        try writer.finish(atSample: 96_000)
        #expect(writer.parts.count == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.file("bob.part3.wav")))
        #expect(try TimelineWAVWriterTests.readBack(directory.file("bob.part2.wav")).samples.count == 48_000)
        #expect(writer.position == 96_000)
    }

    @Test("ending just before a boundary that media crossed: the part after goes, the one before is cut")
    func endBeforeABoundary() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try TimelineWAVWriter(path: directory.file("carol.wav"), segmentSamples: 48_000)
        try writer.write(Self.ramp(from: 0, count: 100_000), atSample: 0)
        try writer.finish(atSample: 95_000)
        #expect(writer.parts.count == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.file("carol.part3.wav")))
        let (_, samples) = try TimelineWAVWriterTests.readBack(directory.file("carol.part2.wav"))
        #expect(samples.count == 47_000)
        #expect(samples.last == Int16(94_999 % 30_000))
        #expect(writer.position == 95_000)
    }

    @Test("a finish far past the audio pads every part to come, each a full segment")
    func paddingMakesParts() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try TimelineWAVWriter(path: directory.file("dave.wav"), segmentSamples: 48_000)
        try writer.write(Self.ramp(from: 0, count: 960), atSample: 0)
        try writer.finish(atSample: 48_000 * 4 + 10)
        #expect(writer.parts.count == 5)
        let lengths = try writer.parts.map { try TimelineWAVWriterTests.readBack($0.path).samples.count }
        #expect(lengths == [48_000, 48_000, 48_000, 48_000, 10])
    }

    @Test("segment names and indices")
    func names() throws {
        #expect(RecordingSegments.partPath("/r/Alice.wav", number: 1) == "/r/Alice.wav")
        #expect(RecordingSegments.partPath("/r/Alice.wav", number: 3) == "/r/Alice.part3.wav")
        #expect(RecordingSegments.partPath("/r.d/mix", number: 2) == "/r.d/mix.part2")
        #expect(RecordingSegments.partPath("A.B.opus", number: 2) == "A.B.part2.opus")
        let segments = try #require(RecordingSegments(seconds: 5))
        #expect(segments.index(ofMs: -20) == 0)
        #expect(segments.index(ofMs: 4999) == 0)
        #expect(segments.index(ofMs: 5000) == 1)
        #expect(segments.startMs(ofIndex: 3) == 15_000)
        for bad in [0, 0.5, -5, 86_401, .infinity, .nan] { #expect(RecordingSegments(seconds: bad) == nil, "\(bad)") }
    }
}
