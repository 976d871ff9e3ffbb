import Foundation
import TestSupport
import Testing

/// Issue 14's limits against a real room (aiortc publishers through Janus): `--idle-timeout`
/// ends a recording that long after the last publisher left, `--max-bytes` and `--max-duration`
/// end it with `stopped_by: limit`; every file is final (decodes clean, manifest finished).
@Suite("RecordLimits", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecordLimitsTests {
    /// `agentd record --json` with `flags`.
    static func record(_ lab: LabEnvironment, room: String, out: String, _ flags: [String]) throws -> ChildProcess {
        try RecordH264Tests.record(lab, room: room, out: out, seconds: nil, ["--json"] + flags)
    }

    /// The `--json` summary agentd printed on stdout.
    static func summary(_ process: ChildProcess) throws -> [String: Any] {
        let line = try #require(process.stdoutLines.last { $0.hasPrefix("{") }, "no JSON summary: \(process.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// Every media file of the recording decodes without an error.
    static func expectFilesFinal(_ out: String, _ manifest: [String: Any]) async throws {
        #expect(manifest["state"] as? String == "finished", "\(manifest["state"] ?? "-") \(manifest["error"] ?? "")")
        let participants = manifest["participants"] as? [[String: Any]] ?? []
        let paths = participants.flatMap { ($0["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
        #expect(!paths.isEmpty)
        for path in paths where !path.hasSuffix(".jsonl") {
            let errors = try await RecordingChecks.decodeErrors(out + "/" + path)
            #expect(errors.isEmpty, "\(path): \(errors.prefix(400))")
        }
    }

    @Test("--idle-timeout 3 ends the recording 3 s after the last publisher leaves (stopped_by idle), every file final")
    func idleTimeout() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("idle")
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-idle-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let publisher = try await RecordChangesTests.publisher(lab, room: room, display: "leaver", seconds: 8)
            defer { publisher.terminate() }
            // --max-duration is only a backstop: an idle timeout that never fired would end there.
            let recording = try Self.record(lab, room: room, out: out, ["--idle-timeout", "3", "--max-duration", "40"])
            defer { recording.terminate() }
            try await pollUntil(timeout: .seconds(45), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")
            #expect(try Self.summary(recording)["stopped_by"] as? String == "idle")
            let manifest = try RecordH264Tests.manifest(out)
            #expect(manifest["stopped_by"] as? String == "idle")
            let participant = try #require((manifest["participants"] as? [[String: Any]])?.first)
            let leftMs = try #require(participant["left_ms"] as? Int, "the publisher never left: \(participant)")
            let durationMs = try #require(manifest["duration_ms"] as? Int)
            print("RecordLimits: idle: left at \(leftMs) ms, recording ended at \(durationMs) ms")
            // 3 s after the leave, give or take the 100 ms poll and the stop's own time.
            #expect(durationMs - leftMs >= 2900 && durationMs - leftMs <= 3800, "left \(leftMs), ended \(durationMs)")
            try await Self.expectFilesFinal(out, manifest)
        }
    }

    @Test("--max-bytes ends the recording with stopped_by limit near the cap; --max-duration 4 at 4 s")
    func caps() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("caps")
            let publisher = try await RecordChangesTests.publisher(lab, room: room, display: "talker", seconds: 60)
            defer { publisher.terminate() }
            for (flags, limit) in [(["--max-bytes", "400K"], "max_bytes"), (["--max-duration", "4"], "max_duration")] {
                let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-caps-\(UUID().uuidString)").path
                defer { try? FileManager.default.removeItem(atPath: out) }
                let started = ContinuousClock.now
                let recording = try Self.record(lab, room: room, out: out, flags + ["--duration", "40"])
                defer { recording.terminate() }
                try await pollUntil(timeout: .seconds(45), "agentd record \(flags) to finish") { !recording.isRunning }
                let took = ContinuousClock.now - started
                #expect(recording.exitStatus == 0, "\(recording.stderr)")
                let summary = try Self.summary(recording)
                #expect(summary["stopped_by"] as? String == "limit", "\(flags): \(summary)")
                #expect(summary["limit"] as? String == limit, "\(flags): \(summary)")
                let manifest = try RecordH264Tests.manifest(out)
                #expect(manifest["stopped_by"] as? String == "limit")
                let durationMs = manifest["duration_ms"] as? Int ?? -1
                let bytes = summary["bytes"] as? Int ?? -1
                print("RecordLimits: \(flags): ended at \(durationMs) ms with \(bytes) bytes, in \(took)")
                if limit == "max_bytes" {
                    // At the cap, and at most about a second (two refreshes) of media past it.
                    #expect(bytes >= 400 << 10, "\(bytes) bytes")
                    #expect(durationMs < 30_000, "the cap did not end it: \(durationMs) ms")
                } else {
                    #expect(abs(durationMs - 4000) <= 200, "\(durationMs) ms")
                }
                try await Self.expectFilesFinal(out, manifest)
            }
        }
    }
}
