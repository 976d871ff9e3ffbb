import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// A timeline WAV that starts later than t=0 (a continued recording's part): sample 0 of its
/// first file is its start, parts number on from the first, and segment cuts stay on the grid.
@Suite(.offThePool) struct TimelineWAVWriterStartTests {
    @Test("from 7 s as part 3 at 5 s segments: part3 7-10 s, part4 10-12 s; audio before the start is dropped")
    func laterStartAndFirstPart() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try TimelineWAVWriter(path: directory.file("alice.wav"), segmentSamples: 240_000, startSample: 336_000, firstPart: 3)
        #expect(writer.position == 336_000 && writer.startSample == 336_000)
        // A block straddling the start keeps only its part after it.
        let placement = try writer.write(TimelineWAVWriterSegmentTests.ramp(from: 335_040, count: 1920), atSample: 335_040)
        #expect(placement.trimmed == 960 && placement.written == 960)
        try writer.write(TimelineWAVWriterSegmentTests.ramp(from: 384_000, count: 960), atSample: 384_000)
        try writer.finish(atSample: 576_000)
        #expect(writer.parts.map(\.startSample) == [336_000, 480_000])
        #expect(writer.parts.map { ($0.path as NSString).lastPathComponent } == ["alice.part3.wav", "alice.part4.wav"])
        #expect(!FileManager.default.fileExists(atPath: directory.file("alice.wav")))
        let (_, first) = try TimelineWAVWriterTests.readBack(writer.parts[0].path)
        let (_, second) = try TimelineWAVWriterTests.readBack(writer.parts[1].path)
        #expect(first.count == 144_000 && second.count == 96_000)
        #expect(Array(first.prefix(960)) == TimelineWAVWriterSegmentTests.ramp(from: 336_000, count: 960))
        #expect(writer.gaps.first == 336_960..<384_000)
    }

    @Test("a mixer over a later-starting WAV emits from its start")
    func mixerFromTheStart() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let output = try TimelineWAVWriter(path: directory.file("mix.wav"), startSample: 96_000, firstPart: 2)
        #expect(throws: SoundFileError.self) { try RoomMixer(output: output) }
        let mixer = try RoomMixer(output: output, startSample: 96_000)
        try mixer.push([Int16](repeating: 100, count: 960), atSample: 96_000, from: "a")
        try mixer.finish(atSample: 144_000)
        #expect(output.parts.map(\.startSample) == [96_000])
        let (_, samples) = try TimelineWAVWriterTests.readBack(directory.file("mix.part2.wav"))
        #expect(samples.count == 48_000 && samples.first == 100)
    }
}
