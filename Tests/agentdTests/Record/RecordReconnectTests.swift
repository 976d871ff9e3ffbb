import Foundation
import TestSupport
import Testing

/// Issue 5's "Janus restart" acceptance: the lab stops and starts Janus 8 s into a 30 s
/// `agentd record`; the aiortc publisher dies with it and is started again (same display) once
/// Janus is back. The room was created at runtime, so `--create` makes it again on the rejoin.
///
/// Restarting Janus affects every lab user: run under `flock /tmp/agentd-lab.lock`. The lab is
/// checked (and brought up if need be) at the end on every path.
@Suite("RecordReconnect", .enabled(if: LabEnvironment.shouldRunDisruptive), .serialized)
struct RecordReconnectTests {
    static let recordingSeconds = 30.0
    static let restartAtSeconds = 8.0

    /// Milliseconds of `date` after `start`.
    static func ms(_ date: Date, after start: Date) -> Int { Int((date.timeIntervalSince(start) * 1000).rounded()) }

    func publisher(_ lab: LabEnvironment, room: String) async throws -> ChildProcess {
        let process = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", "alice", "--tone", "440",
             "--duration", "60", "--create"],
            name: "alice")
        _ = try await process.waitForLine(prefix: "READY", within: .seconds(90))
        return process
    }

    /// A date field of manifest.json (`started_at`, `ended_at`).
    static func manifestDate(_ path: String, key: String) -> Date? {
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let text = object[key] as? String else { return nil }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    /// Leaves the lab up and healthy for whoever comes next.
    static func ensureLabUp() async {
        if (try? await RecordingChecks.lab("status"))?.status != 0 { _ = try? await RecordingChecks.lab("up") }
    }

    @Test("a Janus restart during a 30 s recording: reconnecting, connected, one manifest with the gap, clean files")
    func survivesAJanusRestart() async throws {
        try await withCleanup {
            try await SharedResourceLock.lab.withExclusive { try await restartDuringRecording() }
            #expect(try await RecordingChecks.lab("status").status == 0, "the lab is not up after the test")
        } cleanup: {
            await Self.ensureLabUp()
        }
    }

    private func restartDuringRecording() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("reconnect")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-reconnect-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }

        var alice = try await publisher(lab, room: room)
        defer { alice.terminate() }
        let recording = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--duration", String(Int(Self.recordingSeconds)),
             "--create", "--json", "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"],
            name: "agentd record")
        defer { recording.terminate() }

        // Recording, with alice's media on disk: then wait for the 8 s mark of its timeline.
        try await pollUntil(timeout: .seconds(15), "alice in the manifest with a file") {
            (try? String(contentsOfFile: out + "/manifest.json", encoding: .utf8))?.contains("alice.webm") == true
        }
        let startedAt = try #require(Self.manifestDate(out + "/manifest.json", key: "started_at"))
        let restartAt = startedAt.addingTimeInterval(Self.restartAtSeconds)
        if restartAt > Date() { try await Task.sleep(for: .milliseconds(Int(restartAt.timeIntervalSinceNow * 1000))) }

        let restartBegan = Date()
        let restart = try await RecordingChecks.lab("restart-janus")
        let janusBack = Date()
        #expect(restart.status == 0, "restart-janus: \(restart.output)")
        try await pollUntil(timeout: .seconds(10), "agentd reporting the drop") { recording.stderr.contains("connection lost") }
        await alice.terminate()  // it died with Janus; same display, new Janus id
        alice = try await publisher(lab, room: room)
        try await pollUntil(timeout: .seconds(60), "agentd reporting it is back") { recording.stderr.contains("reconnected after") }
        let reconnectSeen = Date()
        try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
        #expect(recording.exitStatus == 0, "stderr: \(recording.stderr)")
        print("restart \(Self.ms(restartBegan, after: startedAt)) ms, Janus back \(Self.ms(janusBack, after: startedAt)) ms, "
              + "reconnect seen \(Self.ms(reconnectSeen, after: startedAt)) ms; agentd said: \(recording.stderr)")

        // The agent reported reconnecting, then connected: its lines, in that order.
        let stderr = recording.stderr
        let lost = try #require(stderr.range(of: "connection lost at"))
        let back = try #require(stderr.range(of: "reconnected after"))
        #expect(lost.upperBound <= back.lowerBound)

        // One manifest, with one gap of the size measured here.
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(files.filter { $0.hasPrefix("manifest") } == ["manifest.json"], "\(files)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any])
        #expect(manifest["state"] as? String == "finished")
        let gaps = try #require(manifest["gaps"] as? [[String: Any]])
        #expect(gaps.count == 1, "\(gaps)")
        let gapStart = try #require(gaps.first?["start_ms"] as? Int)
        let gapEnd = try #require(gaps.first?["end_ms"] as? Int)
        let measuredStart = Self.ms(restartBegan, after: startedAt)
        let measuredEnd = Self.ms(reconnectSeen, after: startedAt)
        print("gap \(gapStart)...\(gapEnd) ms (\(gapEnd - gapStart) ms); measured \(measuredStart)...\(measuredEnd) ms")
        // Janus goes down somewhere inside `restart-janus` (stopping it can take seconds), so the
        // gap starts between the restart's start and Janus being back, where agentd said it did.
        let janusBackMs = Self.ms(janusBack, after: startedAt)
        #expect(gapStart >= measuredStart - 500 && gapStart <= janusBackMs + 500,
                "gap starts at \(gapStart) ms, the restart ran \(measuredStart)...\(janusBackMs) ms")
        if let said = Self.secondsAfter("connection lost at ", in: recording.stderr) {
            #expect(abs(gapStart - Int(said * 1000)) <= 1000, "gap starts at \(gapStart) ms, agentd said \(said) s")
        }
        #expect(gapEnd <= measuredEnd && measuredEnd - gapEnd <= 1000, "gap ends at \(gapEnd) ms, seen at \(measuredEnd) ms")
        #expect(gapEnd >= Self.ms(janusBack, after: startedAt) - 500, "back before Janus was")
        #expect(gapEnd - gapStart <= measuredEnd - measuredStart + 1000, "the gap is no longer than the outage")

        // alice came back under a new Janus id into the same files.
        let participants = try #require(manifest["participants"] as? [[String: Any]])
        #expect(participants.compactMap { $0["name"] as? String } == ["alice"])
        #expect((participants.first?["ids"] as? [String])?.count == 2)

        // Every file decodes without an error.
        for file in files where file.hasSuffix(".webm") || file.hasSuffix(".wav") {
            let errors = try await RecordingChecks.decodeErrors(out + "/" + file)
            #expect(errors.isEmpty, "\(file): \(errors.prefix(600))")
        }
        #expect(try await RecordingChecks.mkvinfo(out + "/alice.webm").status == 0)

        // The WAV lasts as long as the recording did by the wall clock, silent across the gap,
        // alice's tone on both sides of it.
        let endedAt = try #require(Self.manifestDate(out + "/manifest.json", key: "ended_at"))
        let wallSeconds = endedAt.timeIntervalSince(startedAt)
        let (samples, rate) = try RecordingChecks.samples(out + "/alice.wav")
        #expect(rate == 48_000)
        let wavSeconds = Double(samples.count) / 48_000
        print("alice.wav \(wavSeconds) s, wall clock \(wallSeconds) s")
        #expect(abs(wavSeconds - wallSeconds) <= 0.2)
        #expect(abs(wavSeconds - Self.recordingSeconds) <= 0.2)
        let silent = samples[(gapStart + 300) * 48..<(gapEnd - 100) * 48]
        #expect(silent.allSatisfy { $0 == 0 }, "sound inside the gap")
        for span in [2000..<7000, (gapEnd + 3000)..<(Int(Self.recordingSeconds) * 1000 - 1000)] {
            let part = samples[span.lowerBound * 48..<span.upperBound * 48]
            #expect(goertzelPower(part, frequency: 440) > 100 * goertzelPower(part, frequency: 660), "no 440 Hz in \(span) ms")
            #expect(RecordingChecks.rms(part) > 1000, "\(span) ms is quiet")
        }
    }

    /// The number of seconds in a line like "connection lost at 13.2 s into the recording".
    static func secondsAfter(_ marker: String, in text: String) -> Double? {
        guard let range = text.range(of: marker) else { return nil }
        return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

}
