import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

@Suite(.offThePool) struct TimelineWAVWriterOpusTests {
    @Test func opusConcealmentContinuesTheToneAcrossAShortGap() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let encoder = try OpusEncoder(configuration: .init(channels: 1, application: .audio, bitrate: 64_000))
        let decoder = try OpusDecoder(channels: 1)
        let writer = try TimelineWAVWriter(path: directory.file("plc.wav"))
        let source = tone(frequency: 440, count: 48_000)
        // 50 packets of 20 ms; packets 20 and 21 are lost: a 40 ms gap.
        for index in 0..<50 where index != 20 && index != 21 {
            let packet = try encoder.encode(Array(source[(index * 960)..<((index + 1) * 960)]))
            let pcm = try decoder.decode(packet)
            try writer.write(pcm, atSample: Int64(index * 960), conceal: TimelineWAVWriter.opusConcealment(decoder))
        }
        try writer.finish(atSample: 48_000)
        #expect(writer.concealedInserted == 1920)
        #expect(writer.silenceInserted == 0)
        #expect(writer.gaps == [19_200..<21_120])

        let samples = try SoundFileReader(path: writer.path).readAll()
        #expect(samples.count == 48_000)
        // Concealment right after the loss carries on the tone: energy comparable to the tone's.
        let concealed = samples[19_200..<20_160].map { Double($0) * Double($0) }.reduce(0, +) / 960
        let toneEnergy = source[0..<960].map { Double($0) * Double($0) }.reduce(0, +) / 960  // 8000²/2
        #expect(concealed > toneEnergy * 0.25, "concealed energy \(concealed) vs tone \(toneEnergy)")

        // An odd-sized gap is rounded to libopus's 2.5 ms steps and cut back exactly.
        let conceal = TimelineWAVWriter.opusConcealment(decoder)
        #expect(conceal(1000)?.count == 1080)
        #expect(conceal(10_000)?.count == 5760)
        #expect(conceal(0) == nil)
    }
}
