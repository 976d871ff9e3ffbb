import Agent
import Foundation
import TestSupport
import Testing

/// The daemon binary against the lab: a recording started and stopped through the API, one
/// finalized by SIGTERM, and one that fails while the daemon stays up. Each recording is a few
/// seconds of an aiortc publisher's tone.
@Suite("ServeLab", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct ServeRecordingTests {
    static let pin = "pin-93c1a7"
    /// A Janus core token: the lab runs without token_auth here, so Janus ignores it, but it
    /// travels through the daemon like a real one and must never reach the log.
    static let janusToken = "1999999999,janus,janus.plugin.videoroom:c2VydmUtbGFiLXNpZ25hdHVyZQ=="

    func publisher(_ lab: LabEnvironment, room: String, display: String, tone: Int, pin: String? = nil) async throws -> ChildProcess {
        var arguments = [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", display,
                         "--tone", String(tone), "--duration", "40", "--create"]
        if let pin { arguments += ["--pin", pin] }
        let process = try ChildProcess(Repository.python, arguments, name: display)
        _ = try await process.waitForLine(prefix: "READY", within: .seconds(90))
        return process
    }

    /// Waits until the job records someone and has written bytes.
    func waitUntilRecording(_ client: APIClient, _ id: String) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let job = try await client.get("/v1/jobs/\(id)").json
            if job?["state"] == "running", (job?["participants"]?.integerValue ?? 0) >= 1 { return }
            guard ContinuousClock.now < deadline, job?["state"] != "failed" else {
                throw APIClientFailure(description: "job \(id) is not recording: \(job?.serialized() ?? "-")")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @Test("POST /v1/recordings then DELETE: the files pass the record checks; metrics count the media; the log holds no secret")
    func recordThroughTheAPI() async throws {
        try await SharedResourceLock.lab.withExclusive { try await recordThroughTheAPIBody() }
    }

    private func recordThroughTheAPIBody() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("serve")
        let alice = try await publisher(lab, room: room, display: "alice", tone: 440, pin: Self.pin)
        defer { alice.terminate() }
        let daemon = try await DaemonProcess.start(lab: lab)
        defer { daemon.finish() }
        let client = daemon.client

        let created = try await client.post("/v1/recordings", #"{"room": "\#(room)", "pin": "\#(Self.pin)", "token": "\#(Self.janusToken)", "formats": ["webm", "wav"], "out": "api"}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.json?["id"]?.stringValue)
        let out = try #require(created.json?["out"]?.stringValue)
        #expect(out == daemon.outputRoot + "/api")
        #expect(!created.text.contains(Self.pin) && !created.text.contains("c2VydmUtbGFi"), "the job echoes a secret")
        try await waitUntilRecording(client, id)
        try await Task.sleep(for: .seconds(4))  // the recording's length, not a readiness wait

        let metrics = try PrometheusText(parsing: try await client.get("/metrics").text)
        #expect(metrics.value("agentd_jobs", ["state": "running"]) == 1)
        #expect(metrics.value("agentd_participants") == 1)
        #expect((metrics.value("agentd_received_packets_total") ?? 0) > 100, "\(metrics.value("agentd_received_packets_total") ?? -1)")

        let stopping = try await client.delete("/v1/jobs/\(id)")
        #expect(stopping.status == 200)
        #expect(["stopping", "done"].contains(stopping.json?["state"]?.stringValue ?? ""))
        let done = try await client.waitForJob(id, in: ["done", "failed"], within: .seconds(20))
        #expect(done["state"] == "done", "\(done.serialized())")
        #expect(done["stopped_by"] == "request")
        #expect((done["bytes_written"]?.integerValue ?? 0) > 50_000, "\(done.serialized())")
        #expect((done["stats"]?["packets"]?.integerValue ?? 0) > 200, "\(done.serialized())")

        let seconds = try await checkRecording(out: out, name: "alice", tone: 440, other: 660)
        #expect(seconds > 4 && seconds < 15, "alice.wav lasts \(seconds) s")
        #expect(try await client.get("/healthz").status == 200)
        daemon.process.send(signal: SIGTERM)
        try await pollUntil(timeout: .seconds(20), "agentd serve to exit") { !daemon.process.isRunning }
        #expect(daemon.process.exitStatus == 0)
        let log = daemon.process.stderr
        #expect(log.contains("job created"), "\(log)")
        for secret in [DaemonProcess.token, Self.pin, Self.janusToken, "c2VydmUtbGFiLXNpZ25hdHVyZQ"] {
            #expect(!log.contains(secret), "the log holds a secret: \(log)")
        }
    }

    @Test("SIGTERM during a recording: exit 0, the manifest is final and the files decode")
    func sigtermFinalizes() async throws {
        try await SharedResourceLock.lab.withExclusive { try await sigtermFinalizesBody() }
    }

    private func sigtermFinalizesBody() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("serve-term")
        let bob = try await publisher(lab, room: room, display: "bob", tone: 660)
        defer { bob.terminate() }
        let daemon = try await DaemonProcess.start(lab: lab)
        defer { daemon.finish() }
        let created = try await daemon.client.post("/v1/recordings", #"{"room": "\#(room)"}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.json?["id"]?.stringValue)
        let out = try #require(created.json?["out"]?.stringValue)
        #expect(out.hasPrefix(daemon.outputRoot + "/\(room)-"), "default directory \(out)")
        try await waitUntilRecording(daemon.client, id)
        try await Task.sleep(for: .seconds(4))

        daemon.process.send(signal: SIGTERM)
        try await pollUntil(timeout: .seconds(20), "agentd serve to exit") { !daemon.process.isRunning }
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.stderr)")
        let seconds = try await checkRecording(out: out, name: "bob", tone: 660, other: 440)
        #expect(seconds > 4 && seconds < 15, "bob.wav lasts \(seconds) s")
        #expect(FileManager.default.fileExists(atPath: out + "/data.jsonl"), "default formats include data")
    }

    @Test("a job for a room that does not exist ends failed with the reason; the daemon stays up")
    func failingJob() async throws {
        let lab = try LabEnvironment.required()
        let daemon = try await DaemonProcess.start(lab: lab)
        defer { daemon.finish() }
        let created = try await daemon.client.post("/v1/recordings", #"{"room": "\#(LabEnvironment.freshRoom("serve-missing"))"}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.json?["id"]?.stringValue)
        let failed = try await daemon.client.waitForJob(id, in: ["failed", "done"], within: .seconds(20))
        #expect(failed["state"] == "failed")
        #expect(failed["error"]?.stringValue?.contains("does not exist") == true, "\(failed.serialized())")
        #expect(try await daemon.client.get("/healthz").json?["status"] == "ok")
        #expect(try await daemon.client.post("/v1/recordings", "{}").status == 400, "the daemon still answers")
        #expect(daemon.process.isRunning)
    }

    /// The record issue's checks on one participant: manifest final, webm decodes (opus + vp8),
    /// the WAV holds its own tone well above the other one. Returns the WAV's length in seconds.
    private func checkRecording(out: String, name: String, tone: Double, other: Double) async throws -> Double {
        let manifestData = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
        #expect(manifest["ended_at"] is String, "manifest not final: \(manifest)")
        #expect(manifest["state"] as? String != "recording", "\(manifest["state"] ?? "-")")
        let participants = manifest["participants"] as? [[String: Any]] ?? []
        #expect(participants.compactMap { $0["name"] as? String } == [name])

        let webm = "\(out)/\(name).webm"
        let codecs = try await RecordingChecks.streamCodecs(webm)
        #expect(codecs.contains("opus") && codecs.contains("vp8"), "\(codecs)")
        let errors = try await RecordingChecks.decodeErrors(webm)
        #expect(errors.isEmpty, "\(errors.prefix(600))")
        let (samples, rate) = try RecordingChecks.samples("\(out)/\(name).wav")
        #expect(rate == 48_000)
        let middle = samples.dropFirst(48_000).dropLast(24_000)
        let own = goertzelPower(middle, frequency: tone)
        #expect(own > 20 * goertzelPower(middle, frequency: other), "\(name).wav: \(tone) Hz vs \(other) Hz")
        #expect(RecordingChecks.rms(middle) > 1000, "\(name).wav is too quiet")
        return Double(samples.count) / 48_000
    }
}
