import Foundation
import RecordingReport
import TestSupport
import Testing

/// Issue 3's loss acceptance: with the lab dropping 5 % of UDP packets each way, the recording
/// still decodes cleanly, NACKs and PLIs were sent, and the WAV keeps the right length.
@Suite("RecordLoss", .enabled(if: LabEnvironment.shouldRunDisruptive), .serialized)
struct RecordLossTests {
    @Test("5 % loss: clean WebM, NACK and PLI counted, WAV length right")
    func recordsThroughLoss() async throws {
        try await SharedResourceLock.lab.withExclusive { try await recordThroughLoss() }
    }

    private func recordThroughLoss() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("loss")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-loss-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }

        let publisher = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", "lossy", "--create", "--duration", "40"])
        defer { publisher.terminate() }
        _ = try await publisher.waitForLine(prefix: "READY", within: .seconds(90))

        let applied = try await RecordingChecks.lab("up", "--loss", "5")
        #expect(applied.status == 0, "\(applied.output)")
        try await withCleanup {
            let before = try await RecordingChecks.lab("loss-stats").output

            let recording = try ChildProcess(
                AgentdBinary.path,
                ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--duration", "10", "--ice-allow", "agentd-lab0"])
            defer { recording.terminate() }
            try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")
            let after = try await RecordingChecks.lab("loss-stats").output
            print("loss-stats before: \(before.split(separator: "\n").joined(separator: " ")); after: \(after.split(separator: "\n").joined(separator: " "))")

            let webm = out + "/lossy.webm"
            let errors = try await RecordingChecks.decodeErrors(webm)
            #expect(errors.isEmpty, "decode errors under loss: \(errors.prefix(600))")
            let (samples, _) = try RecordingChecks.samples(out + "/lossy.wav")
            #expect(abs(Double(samples.count) / 48_000 - 10) <= 0.1, "lossy.wav lasts \(Double(samples.count) / 48_000) s")

            let manifestData = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
            let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
            let participant = try #require((manifest["participants"] as? [[String: Any]])?.first)
            let stats = try #require(participant["stats"] as? [String: [String: Any]])
            let video = try #require(stats["video"])
            let audio = try #require(stats["audio"])
            let nacks = (video["nacks"] as? Int ?? 0) + (audio["nacks"] as? Int ?? 0)
            let plis = video["plis"] as? Int ?? 0
            let videoLost = video["lost"] as? Int ?? 0
            print("under 5 % loss: video \(video), audio \(audio)")
            #expect(nacks > 0, "no NACK sent under loss")
            #expect(videoLost + (video["recovered"] as? Int ?? 0) > 0, "the loss did not show")
            // A keyframe is asked for when a video packet stays lost (NACK could not recover it) or
            // when the subscription's first frame is not a keyframe. When NACK recovered every video
            // packet and Janus's own PLI made the first frame a keyframe, no request is due; the
            // request policy itself is KeyframeRequesterTests'.
            if videoLost > 0 {
                #expect(plis > 0, "\(videoLost) video packets stayed lost, yet no PLI was sent (a FIR only follows PLIs)")
            }
            #expect((video["keyframes"] as? Int ?? 0) > 0, "no keyframe recorded")
            // The QA report written at stop shows the loss too (issue 14).
            let report = try JSONDecoder().decode(RecordingReport.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
            let lossy = try #require(report.participants.first)
            #expect(lossy.video.lost + lossy.video.recovered > 0 && lossy.nacks > 0, "report: video \(lossy.video), nacks \(lossy.nacks)")
        } cleanup: {
            _ = try? await RecordingChecks.lab("up")
        }
    }

    @Test("5 % loss, a Chromium H.264 publisher: the .mkv decodes clean, NACKs and PLIs were sent")
    func recordsH264ThroughLoss() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("h264loss")
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-h264loss-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let publisher = try await RecordH264Tests.chromiumH264(lab, room: room, display: "safari")
            defer { publisher.terminate() }
            let applied = try await RecordingChecks.lab("up", "--loss", "5")
            #expect(applied.status == 0, "\(applied.output)")
            try await withCleanup {
                let recording = try RecordH264Tests.record(lab, room: room, out: out, seconds: 10)
                defer { recording.terminate() }
                try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
                #expect(recording.exitStatus == 0, "\(recording.stderr)")
                let errors = try await RecordingChecks.decodeErrors(out + "/safari.mkv")
                #expect(errors.isEmpty, "decode errors under loss: \(errors.prefix(600))")
                let participant = try #require((try RecordH264Tests.manifest(out)["participants"] as? [[String: Any]])?.first)
                let stats = try #require(participant["stats"] as? [String: [String: Any]])
                let video = try #require(stats["video"])
                print("RecordH264: under 5 % loss: video \(video)")
                let nacks = video["nacks"] as? Int ?? 0
                let plis = video["plis"] as? Int ?? 0
                let lost = video["lost"] as? Int ?? 0
                #expect(nacks > 0, "no NACK sent under loss")
                // A PLI goes out when a packet stays lost; NACK may have recovered every one.
                if lost > 0 { #expect(plis > 0, "\(lost) video packets stayed lost, yet no PLI was sent") }
                #expect((video["keyframes"] as? Int ?? 0) > 0)
            } cleanup: {
                _ = try? await RecordingChecks.lab("up")
            }
        }
    }
}
