import Foundation
import Synchronization
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentMedia

/// ``SpeakerSink``: RFC 6464 levels when the frames carry them (nothing decoded: the payloads
/// here are not even Opus), the decoder otherwise.
@Suite struct SpeakerSinkTests {
    final class Reports: Sendable {
        let all = Mutex<[(voiced: Bool, speaking: Bool, level: Double, durationMs: Int64, fromHeader: Bool)]>([])
    }

    static func frame(_ index: Int, level: UInt8?) -> RemoteFrame {
        RemoteFrame(participantID: "a", kind: .audio, codec: .opus, bytes: [0xFF, 0xFF, 0xFF, 0xFF], isKeyframe: true,
                    rtpTimestamp: Int64(index) * 960, clockRate: 48_000, wallTimeNanoseconds: 0, mappedBySenderReport: false,
                    audioLevel: level)
    }

    @Test func headerLevelsAreUsedWithoutDecoding() {
        let reports = Reports()
        let sink = SpeakerSink(settings: .init()) { voiced, speaking, level, duration, header in
            reports.all.withLock { $0.append((voiced, speaking, level, duration, header)) }
        }
        // 300 ms at -20 dBov, then 500 ms at silence (127).
        for index in 0..<15 { sink.receive(Self.frame(index, level: 20)) }
        for index in 15..<40 { sink.receive(Self.frame(index, level: 127)) }
        let all = reports.all.withLock { $0 }
        #expect(all.count == 40 && all.allSatisfy { $0.fromHeader && $0.durationMs == 20 })
        #expect(all[0].level == -20 && all[0].voiced)
        #expect(all[3].speaking, "speaking once 40 ms are voiced")
        #expect(all[16].speaking && !all[16].voiced, "the hangover holds it through the first of the silence")
        #expect(!all[39].speaking, "and ends it 300 ms in")
    }

    @Test func framesWithoutALevelAreDecoded() throws {
        let reports = Reports()
        let sink = SpeakerSink(settings: .init()) { voiced, speaking, level, duration, header in
            reports.all.withLock { $0.append((voiced, speaking, level, duration, header)) }
        }
        let encoder = try OpusEncoder()
        var phase = 0
        for index in 0..<20 {
            let pcm = (0..<960).map { Int16(6000 * sin(2 * Double.pi * 300 * Double(phase + $0) / 48_000)) }
            phase += 960
            var frame = Self.frame(index, level: nil)
            frame.bytes = try encoder.encode(pcm)
            sink.receive(frame)
        }
        sink.finish()
        let all = reports.all.withLock { $0 }
        #expect(all.count >= 38, "10 ms decoded frames: \(all.count)")
        #expect(all.allSatisfy { !$0.fromHeader && $0.durationMs == 10 })
        #expect(all.suffix(10).allSatisfy { $0.voiced && $0.speaking })
    }
}
