import Foundation
import TestSupport
import Testing

/// `--notice both` against a real room: an aiortc subscriber to the recorder's announcer hears
/// `active: true` while recording, `active: false` at the stop and the spoken stop line; the
/// recording does not include its own announcer.
@Suite("RecordNotice", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecordNoticeTests {
    /// The recorder notices the subscriber wrote, in order.
    static func notices(_ file: String) -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard let row = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let payload = row["data"] as? String,
                let notice = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
                notice["type"] as? String == "recorder"
            else { return nil }
            return notice
        }
    }

    @Test("--notice both: a subscriber gets active:true, then active:false (stopped_by duration) and the spoken line at the stop; the recorder is not in its own recording")
    func dataNotice() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("notice")
            let scratch = try ScratchDirectory("notice")
            let out = scratch.path("rec")
            let publisher = try await RecordChangesTests.publisher(lab, room: room, display: "alice", seconds: 60)
            defer { publisher.terminate() }
            let recording = try RecordLimitsTests.record(lab, room: room, out: out, ["--notice", "both", "--duration", "8", "--display", "rec-bot"])
            defer { recording.terminate() }
            let listener = try ChildProcess(
                Repository.python,
                [Repository.peer("subscriber.py"), "--ws", lab.janusWS, "--room", room, "--feed-display", "rec-bot",
                 "--out", scratch.path("sub"), "--find-timeout", "20"],
                name: "subscriber of the recorder")
            defer { listener.terminate() }
            _ = try await listener.waitForLine(prefix: "READY", within: .seconds(40))
            let log = scratch.path("sub/data.jsonl")
            try await pollUntil(timeout: .seconds(15), "an active:true notice") {
                Self.notices(log).contains { $0["active"] as? Bool == true }
            }
            try await pollUntil(timeout: .seconds(30), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")
            try await pollUntil(timeout: .seconds(10), "the active:false notice") {
                Self.notices(log).contains { $0["active"] as? Bool == false }
            }
            let notices = Self.notices(log)
            print("RecordNotice: \(notices.count) notices: \(notices.map { "\($0["seq"] ?? "-"):\($0["active"] ?? "-")" })")
            let last = try #require(notices.last)
            #expect(last["active"] as? Bool == false, "the last notice is not the stop: \(notices)")
            #expect(last["stopped_by"] as? String == "duration")
            #expect(last["room"] as? String == room && last["recorder"] as? String == "rec-bot")
            // Numbered in order; nothing claims recording after the stop.
            let sequence = notices.compactMap { $0["seq"] as? Int }
            #expect(sequence == sequence.sorted() && Set(sequence).count == sequence.count, "\(sequence)")
            #expect(notices.filter { $0["active"] as? Bool == false }.count == 1)
            // "Recording stopped." reached the subscriber (the start line may come before it
            // subscribed): speech in its audio, where the announcer's track is otherwise silent.
            await listener.terminate()  // SIGTERM: it closes audio.wav
            let (samples, rate) = try RecordingChecks.samples(scratch.path("sub/audio.wav"))
            let window = max(rate / 10, 1)
            let loudest = stride(from: 0, to: max(samples.count - window, 0), by: window)
                .map { RecordingChecks.rms(samples[$0..<($0 + window)]) }.max() ?? 0
            print("RecordNotice: subscriber audio \(samples.count / max(rate, 1)) s, loudest 100 ms RMS \(Int(loudest))")
            #expect(loudest > 300, "no speech heard: loudest RMS \(loudest)")
            // The recorder heard alice and not itself.
            let manifest = try RecordH264Tests.manifest(out)
            let names = (manifest["participants"] as? [[String: Any]] ?? []).compactMap { $0["display"] as? String }
            #expect(names == ["alice"], "\(names)")
        }
    }
}
