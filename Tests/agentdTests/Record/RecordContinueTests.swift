import Foundation
import TestSupport
import Testing

/// Issue 16's recorder side: a recording whose agentd was killed with SIGKILL is continued in its
/// directory by `agentd record --continue` as its next part: one participant with two WebM parts
/// on one timeline, one `continued` gap between them, every file from before the kill unchanged,
/// and the files from before and after it decoding clean.
@Suite("RecordContinue", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecordContinueTests {
    /// Every file of the directory with its bytes.
    static func contents(_ out: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out) where !name.hasPrefix(".") {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
        }
        return result
    }

    static func int(_ value: Any?) -> Int { value as? Int ?? -1 }

    @Test("kill -9, then --continue: x.webm and x.part2.webm in order around one continued gap, both clean, WAV parts, nothing rewritten")
    func killedRecordingContinuesAsTheNextPart() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("continue")
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-continue-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let publisher = try await RecordChangesTests.publisher(lab, room: room, display: "steady", seconds: 150)
            defer { publisher.terminate() }

            let first = try RecordH264Tests.record(lab, room: room, out: out, seconds: nil)
            defer { first.terminate() }
            try await RecordChangesTests.waitForMedia(out + "/steady.webm", first)
            #expect(first.isRunning, "\(first.stderr)")
            first.send(signal: SIGKILL)
            try await pollUntil(timeout: .seconds(15), "the killed agentd to be gone") { !first.isRunning }
            let killed = try Self.contents(out)
            let killedManifest = try RecordH264Tests.manifest(out)
            #expect(killedManifest["state"] as? String == "recording" && killedManifest["written_ms"] is Int, "\(killedManifest)")
            // What a kill -9 leaves decodes as it is: the WebM without its final sizes and cues.
            let killedErrors = try await RecordingChecks.decodeErrors(out + "/steady.webm")
            let killedFrames = try await RecordingChecks.videoFrames(out + "/steady.webm")
            print("RecordContinue: after kill -9, steady.webm holds \(killedFrames) frames, decode errors: \(killedErrors.isEmpty ? "none" : killedErrors)")
            #expect(killedErrors.isEmpty, "steady.webm after kill -9: \(killedErrors.prefix(600))")
            let killedWAVMs = try RecordingChecks.samples(out + "/steady.wav").samples.count / 48

            let second = try RecordH264Tests.record(lab, room: room, out: out, seconds: nil, ["--continue"])
            defer { second.terminate() }
            try await RecordChangesTests.waitForMedia(out + "/steady.part2.webm", second)
            second.send(signal: SIGINT)
            try await pollUntil(timeout: .seconds(40), "agentd record --continue to finish") { !second.isRunning }
            #expect(second.exitStatus == 0, "\(second.stderr)")

            // Every file the killed recorder wrote is as it left it; only the manifest is new.
            let after = try Self.contents(out)
            for (name, bytes) in killed where name != "manifest.json" {
                #expect(after[name] == bytes, "\(name) was rewritten")
            }
            let manifest = try RecordH264Tests.manifest(out)
            #expect(manifest["started_at"] as? String == killedManifest["started_at"] as? String)
            #expect(manifest["state"] as? String == "finished", "\(manifest["state"] ?? "")")
            let participants = manifest["participants"] as? [[String: Any]] ?? []
            #expect(participants.compactMap { $0["name"] as? String } == ["steady"], "\(participants)")
            let files = participants.first?["files"] as? [[String: Any]] ?? []
            let webm = files.filter { $0["format"] as? String == "webm" }
            let wav = files.filter { $0["format"] as? String == "wav" }
            #expect(webm.compactMap { $0["path"] as? String } == ["steady.webm", "steady.part2.webm"], "\(files)")
            #expect(wav.compactMap { $0["path"] as? String } == ["steady.wav", "steady.part2.wav"], "\(files)")
            let gaps = (manifest["gaps"] as? [[String: Any]] ?? []).filter { $0["reason"] as? String == "continued" }
            #expect(gaps.count == 1, "\(manifest["gaps"] ?? "")")
            let topFiles = (manifest["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
            #expect(topFiles == ["data.jsonl", "data.part2.jsonl"], "\(topFiles)")
            if webm.count == 2, wav.count == 2, let gap = gaps.first {
                let (gapStart, gapEnd) = (Self.int(gap["start_ms"]), Self.int(gap["end_ms"]))
                let (firstStart, secondStart) = (Self.int(webm[0]["start_ms"]), Self.int(webm[1]["start_ms"]))
                print("RecordContinue: steady.webm from \(firstStart) ms, gap \(gapStart)-\(gapEnd) ms, steady.part2.webm from \(secondStart) ms")
                // In order on one timeline: the first part, the gap, then the second part shortly
                // after the second agentd started (its join and the first keyframe).
                #expect(firstStart >= 0 && firstStart + 3000 < gapStart && gapStart <= gapEnd, "\(gap) \(webm)")
                // The gap starts where the killed recorder's WAV ends (it wrote past its last manifest).
                #expect(gapStart == Self.int(wav[0]["start_ms"]) + killedWAVMs, "\(gap), steady.wav held \(killedWAVMs) ms")
                #expect(secondStart >= gapEnd && secondStart - gapEnd < 15_000, "\(gap) \(webm)")
                // The second WAV starts where the run did: at the gap's end, and runs to the end.
                #expect(Self.int(wav[1]["start_ms"]) == gapEnd, "\(wav)")
                #expect(Self.int(wav[1]["end_ms"]) == Self.int(manifest["duration_ms"]), "\(wav) \(manifest["duration_ms"] ?? "")")
            }
            for path in ["steady.webm", "steady.part2.webm"] {
                let errors = try await RecordingChecks.decodeErrors(out + "/" + path)
                #expect(errors.isEmpty, "\(path): \(errors.prefix(600))")
                let frames = try await RecordingChecks.videoFrames(out + "/" + path)
                print("RecordContinue: \(path) decodes to \(frames) video frames")
                #expect(frames >= 60, "\(path): \(frames) frames")
            }
            for path in ["steady.wav", "steady.part2.wav"] {
                let errors = try await RecordingChecks.decodeErrors(out + "/" + path)
                #expect(errors.isEmpty, "\(path): \(errors.prefix(600))")
                let (samples, rate) = try RecordingChecks.samples(out + "/" + path)
                #expect(rate == 48_000 && samples.count > 3 * 48_000, "\(path): \(samples.count) samples")
                // aiortc's 440 Hz tone at 0.3 of full scale (RMS about 6950) up to the file's end.
                let tail = samples.suffix(2 * 48_000)
                print("RecordContinue: \(path): \(samples.count) samples, the last 2 s: \(RecordingChecks.toneReport(tail))")
                #expect(goertzelPower(tail, frequency: 440) > 1000 * max(goertzelPower(tail, frequency: 660), goertzelPower(tail, frequency: 880)),
                        "\(path): \(RecordingChecks.toneReport(tail))")
                #expect(RecordingChecks.rms(tail) > 5000, "\(path): \(RecordingChecks.toneReport(tail))")
            }
            #expect(FileManager.default.fileExists(atPath: out + "/report.json"))
        }
    }
}
