import Agent
import Foundation
import Testing

@testable import Recorder

@Suite struct TimelineWAVWriterTests {
    static func readBack(_ path: String) throws -> (info: SoundFile.Info, samples: [Int16]) {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        return (reader.info, try reader.readAll())
    }

    @Test func firstAudioAtThreeSecondsIsPrecededByExactlyThreeSecondsOfSilence() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.file("alice.wav")
        let writer = try TimelineWAVWriter(path: path)
        let beep = tone(frequency: 440, count: 48_000)
        // The first 20 ms block arrives at t = 3 s; the rest follows contiguously.
        for block in 0..<50 {
            let chunk = Array(beep[(block * 960)..<((block + 1) * 960)])
            let placement = try writer.write(chunk, atSample: 144_000 + Int64(block * 960))
            #expect(placement.silence == (block == 0 ? 144_000 : 0))
        }
        try writer.finish(atSample: 192_000)

        let (info, samples) = try Self.readBack(path)
        #expect(info.sampleRate == 48_000)
        #expect(info.channels == 1)
        #expect(info.encoding == .pcm16)
        #expect(info.frames == 192_000)
        #expect(samples.count == 192_000)
        #expect(samples[0..<144_000].allSatisfy { $0 == 0 })
        #expect(Array(samples[144_000...]) == beep)
        #expect(samples[144_001] != 0)  // the tone really starts at 3 s, not later
        #expect(writer.silenceInserted == 144_000)
        #expect(writer.samplesWritten == 48_000)
        #expect(writer.gaps == [0..<144_000])
    }

    @Test func finishBeforeThePositionCutsTheFile() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.file("late.wav")
        let writer = try TimelineWAVWriter(path: path)
        let beep = tone(frequency: 440, count: 48_000)
        _ = try writer.write(beep, atSample: 0)
        try writer.finish(atSample: 30_000)  // the recording ended before this audio did
        let (info, samples) = try Self.readBack(path)
        #expect(info.frames == 30_000)
        #expect(samples == Array(beep.prefix(30_000)))
        #expect(writer.position == 30_000)
    }

    @Test func gapInTheMiddleIsFilledWithSilenceOrShortConcealment() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.file("bob.wav")
        let writer = try TimelineWAVWriter(path: path)
        writer.maxConcealedGap = 1920
        let ones = [Int16](repeating: 1000, count: 960)
        try writer.write(ones, atSample: 0)
        // 960 ..< 2880 missing (40 ms): short enough to conceal.
        var asked: [Int] = []
        let placed = try writer.write(ones, atSample: 2880) { count in
            asked.append(count)
            return [Int16](repeating: 77, count: 1200)  // fewer than asked: rest is silence
        }
        #expect(asked == [1920])
        #expect(placed == TimelineWAVWriter.Placement(silence: 720, concealed: 1200, trimmed: 0, written: 960))
        // 3840 ..< 9600 missing (120 ms): longer than maxConcealedGap, so silence, never asked.
        try writer.write(ones, atSample: 9600) { count in
            asked.append(count)
            return [Int16](repeating: 55, count: count)
        }
        #expect(asked == [1920])
        try writer.finish(atSample: 10_560)

        let (_, samples) = try Self.readBack(path)
        #expect(samples.count == 10_560)
        #expect(samples[0..<960].allSatisfy { $0 == 1000 })
        #expect(samples[960..<2160].allSatisfy { $0 == 77 })
        #expect(samples[2160..<2880].allSatisfy { $0 == 0 })
        #expect(samples[2880..<3840].allSatisfy { $0 == 1000 })
        #expect(samples[3840..<9600].allSatisfy { $0 == 0 })
        #expect(samples[9600..<10_560].allSatisfy { $0 == 1000 })
        #expect(writer.concealedInserted == 1200)
        #expect(writer.silenceInserted == 720 + 5760)
        #expect(writer.samplesWritten == 2880)
        #expect(writer.gaps == [960..<2880, 3840..<9600])
    }

    @Test func overlapIsTrimmedAndAWhollyLateBlockDropped() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.file("carol.wav")
        let writer = try TimelineWAVWriter(path: path)
        try writer.write([Int16](repeating: 1, count: 960), atSample: 0)
        let overlapping = try writer.write([Int16](repeating: 2, count: 960), atSample: 480)
        #expect(overlapping == TimelineWAVWriter.Placement(silence: 0, concealed: 0, trimmed: 480, written: 480))
        let duplicate = try writer.write([Int16](repeating: 3, count: 960), atSample: 0)
        #expect(duplicate.written == 0)
        #expect(duplicate.trimmed == 960)
        // Before t=0 (a packet from just before the recording started).
        try writer.write([Int16](repeating: 4, count: 960), atSample: 1440 - 960 - 1440)
        try writer.finish(atSample: 1440)
        #expect(writer.overlapsTrimmed == 3)
        #expect(writer.samplesTrimmed == 480 + 960 + 960)
        #expect(writer.samplesWritten == 1440)

        let (_, samples) = try Self.readBack(path)
        #expect(samples == [Int16](repeating: 1, count: 960) + [Int16](repeating: 2, count: 480))
    }

    @Test func finishPadsEveryWriterToTheSameLength() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let early = try TimelineWAVWriter(path: directory.file("early.wav"))
        let late = try TimelineWAVWriter(path: directory.file("late.wav"), channels: 2)
        try early.write(tone(frequency: 440, count: 1000), atSample: 0)
        let stereo = tone(frequency: 660, count: 2000).flatMap { [$0, $0] }
        try late.write(stereo, atSample: 3000)
        try early.finish(atSample: 6000)
        try late.finish(atSample: 6000)
        try early.finish(atSample: 9000)  // idempotent: no second padding

        let (earlyInfo, earlySamples) = try Self.readBack(early.path)
        let (lateInfo, lateSamples) = try Self.readBack(late.path)
        #expect(earlyInfo.frames == 6000)
        #expect(lateInfo.frames == 6000)
        #expect(lateInfo.channels == 2)
        #expect(earlySamples[1000...].allSatisfy { $0 == 0 })
        #expect(lateSamples[0..<6000].allSatisfy { $0 == 0 })
        #expect(Array(lateSamples[6000..<10_000]) == stereo)
        #expect(lateSamples[10_000...].allSatisfy { $0 == 0 })
        #expect(early.gaps == [1000..<6000])
    }

    @Test func refusesBadInputWithoutTrapping() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = try TimelineWAVWriter(path: directory.file("bad.wav"), channels: 2)
        #expect(throws: SoundFileError.self) { try writer.write([1, 2, 3], atSample: 0) }
        #expect(throws: SoundFileError.self) { try writer.write([1, 2], atSample: .max) }
        #expect(throws: SoundFileError.self) { try writer.write([1, 2], atSample: .min) }
        #expect(throws: SoundFileError.self) { try TimelineWAVWriter(path: directory.file("x.wav"), channels: 3) }
        try writer.finish(atSample: 10)
        #expect(throws: SoundFileError.closed(path: writer.path)) { try writer.write([1, 2], atSample: 10) }
        #expect(writer.position == 10)
    }
}
