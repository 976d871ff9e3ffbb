import Agent
import Foundation
import TestSupport
import Testing

/// Issue 16 against the lab: `agentd serve --redis` queues, `agentd worker`s record aiortc
/// publishers through the real Janus.
@Suite("WorkerLab", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct WorkerLabTests {
    static func publisher(_ lab: LabEnvironment, room: String, display: String = "alice", tone: Int = 440) async throws -> ChildProcess {
        let process = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", display, "--tone", String(tone),
             "--duration", "180", "--create"],
            name: display)
        _ = try await process.waitForLine(prefix: "READY", within: .seconds(90))
        return process
    }

    /// One participant's webm and wav in `out`: the manifest final, the webm decodes clean with
    /// opus and vp8, the wav holds the tone. Returns the parts' paths the manifest lists.
    static func checkRecording(_ out: String, name: String = "alice", tone: Double = 440) async throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(manifest["ended_at"] is String, "\(out): manifest not final")
        let participants = manifest["participants"] as? [[String: Any]] ?? []
        #expect(participants.compactMap { $0["name"] as? String } == [name], "\(out)")
        let files = participants.flatMap { $0["files"] as? [[String: Any]] ?? [] }.compactMap { $0["path"] as? String }
        for webm in files where webm.hasSuffix(".webm") {
            let errors = try await RecordingChecks.decodeErrors(out + "/" + webm)
            #expect(errors.isEmpty, "\(out)/\(webm): \(errors.prefix(400))")
            let codecs = try await RecordingChecks.streamCodecs(out + "/" + webm)
            #expect(codecs.contains("opus") && codecs.contains("vp8"), "\(webm): \(codecs)")
        }
        let samples = try RecordingChecks.samples(out + "/" + name + ".wav").samples
        let middle = samples.dropFirst(48_000).dropLast(24_000)
        #expect(goertzelPower(middle, frequency: tone) > 20 * goertzelPower(middle, frequency: tone * 1.5), "\(out)/\(name).wav: not its tone")
        #expect(RecordingChecks.rms(middle) > 1000, "\(out)/\(name).wav is too quiet")
        return files
    }

    @Test("three workers at capacity 1, six recordings: three wait queued, none runs twice or beside another on its worker, every file checks out")
    func sixRecordingsOnThreeWorkers() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("workers")
            let alice = try await Self.publisher(lab, room: room)
            defer { alice.terminate() }
            let cluster = try await WorkerCluster(lab: lab)
            defer { cluster.finish() }
            let workers = [try await cluster.worker("w1"), try await cluster.worker("w2"), try await cluster.worker("w3")]
            var ids: [String] = []
            for index in 0..<6 {
                let created = try await cluster.client.post(
                    "/v1/recordings", #"{"id": "rec-\#(index)", "room": "\#(room)", "out": "\#(room)-\#(index)", "duration": 6, "formats": ["webm", "wav"]}"#)
                #expect(created.status == 201, "\(created.text)")
                ids.append("rec-\(index)")
            }
            // Watch the jobs until all ended: per worker, how many it held at once; and whether
            // jobs waited (queued, no worker) while three ran.
            var mostHeld: [String: Int] = [:]
            var waitedWhileThreeRan = false
            let deadline = ContinuousClock.now + .seconds(150)
            var jobs: [JSONValue] = []
            while ContinuousClock.now < deadline {
                jobs = try await cluster.client.get("/v1/jobs").json?["jobs"]?.arrayValue ?? []
                let active = jobs.filter { !["done", "failed"].contains($0["state"]?.stringValue ?? "") }
                var held: [String: Int] = [:]
                for job in active { if let worker = job["worker"]?.stringValue { held[worker, default: 0] += 1 } }
                for (worker, count) in held { mostHeld[worker] = max(mostHeld[worker] ?? 0, count) }
                let running = active.filter { $0["state"] == "running" }.count
                let waiting = active.filter { $0["state"] == "queued" && $0["worker"] == .null }.count
                if running == 3 && waiting >= 1 { waitedWhileThreeRan = true }
                if jobs.count == 6 && active.isEmpty { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            print("WorkerLab: most held at once \(mostHeld); jobs \(jobs.map { "\($0["id"]?.stringValue ?? "?")@\($0["worker"]?.stringValue ?? "-"):\($0["state"]?.stringValue ?? "?")" })")
            #expect(jobs.count == 6)
            #expect(mostHeld.values.allSatisfy { $0 <= 1 }, "a worker held more than its capacity: \(mostHeld)")
            #expect(waitedWhileThreeRan, "no job waited queued while three ran")
            for job in jobs {
                #expect(job["state"] == "done", "\(job.serialized())")
                #expect(job["attempts"]?.integerValue == 1 && job["reclaims"]?.integerValue == 0, "\(job.serialized())")
            }
            var claimed = 0.0
            for worker in workers { claimed += try await worker.metrics().value("agentd_worker_jobs_claimed_total", ["worker": worker.name]) ?? 0 }
            #expect(claimed == 6, "claims: \(claimed)")
            for index in 0..<6 {
                let files = try await Self.checkRecording(cluster.outputRoot + "/\(room)-\(index)")
                #expect(files.filter { $0.hasSuffix(".webm") } == ["alice.webm"], "\(files)")
            }
        }
    }

    @Test("the same id twice is one job (201, then 200); a room that does not exist is dead-lettered after its attempts, its error in the API")
    func idempotentSubmitAndDeadLetters() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("idem")
            let alice = try await Self.publisher(lab, room: room)
            defer { alice.terminate() }
            let cluster = try await WorkerCluster(lab: lab)
            defer { cluster.finish() }
            let body = #"{"id": "once", "room": "\#(room)", "duration": 3, "formats": ["webm", "wav"]}"#
            let first = try await cluster.client.post("/v1/recordings", body)
            let second = try await cluster.client.post("/v1/recordings", body)
            #expect(first.status == 201 && second.status == 200, "\(first.status) \(second.status): \(second.text)")
            #expect(second.json?["id"] == "once" && second.json?["out"] == first.json?["out"])
            let asBot = try await cluster.client.post("/v1/bots", #"{"id": "once", "recipe": "echo", "room": "\#(room)"}"#)
            #expect(asBot.status == 409, "\(asBot.text)")
            let poison = try await cluster.client.post("/v1/recordings", #"{"id": "poison", "room": "no-such-room-\#(room)"}"#)
            #expect(poison.status == 201, "\(poison.text)")

            let worker = try await cluster.worker("solo", maxAttempts: 2)
            let done = try await cluster.client.waitForJob("once", in: ["done", "failed"], within: .seconds(60))
            #expect(done["state"] == "done" && done["attempts"]?.integerValue == 1, "\(done.serialized())")
            let dead = try await cluster.client.waitForJob("poison", in: ["done", "failed"], within: .seconds(60))
            print("WorkerLab: dead letter \(dead.serialized())")
            #expect(dead["state"] == "failed" && dead["dead_lettered"] == .bool(true) && dead["attempts"]?.integerValue == 2, "\(dead.serialized())")
            #expect(dead["error"]?.stringValue?.contains("room") == true, "\(dead.serialized())")
            #expect(try await cluster.redis.command(["XLEN", "agentd:dead"]) == "1")
            let listed = try await cluster.client.get("/v1/jobs").json?["jobs"]?.arrayValue ?? []
            #expect(listed.compactMap { $0["id"]?.stringValue }.sorted() == ["once", "poison"])
            let metrics = try await worker.metrics()
            #expect(metrics.value("agentd_worker_jobs_dead_lettered_total", ["worker": "solo"]) == 0, "the last failure dead-letters in finish")
            #expect(metrics.value("agentd_worker_jobs_finished_total", ["worker": "solo", "outcome": "retry"]) == 2)
            _ = try await Self.checkRecording(try #require(done["out"]?.stringValue))
        }
    }

    @Test("a job is running in the API as soon as its worker joined the room, not a heartbeat later")
    func runningIsReportedWhenJoined() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("running")
            let alice = try await Self.publisher(lab, room: room)
            defer { alice.terminate() }
            let cluster = try await WorkerCluster(lab: lab)
            defer { cluster.finish() }
            // Heartbeats 20 s apart: a `running` that waited for one would come after the job's end.
            _ = try await cluster.worker("slow-beat", lease: 60, heartbeat: 20)
            let submitted = ContinuousClock.now
            let created = try await cluster.client.post("/v1/recordings", #"{"id": "prompt", "room": "\#(room)", "duration": 8}"#)
            #expect(created.status == 201, "\(created.text)")
            let running = try await cluster.client.waitForJob("prompt", in: ["running", "done", "failed"], within: .seconds(30))
            let after = ContinuousClock.now - submitted
            print("WorkerLab: \(running["state"]?.stringValue ?? "?") \(after) after the submit")
            #expect(running["state"] == "running", "\(running.serialized())")
            #expect(after < .seconds(8), "running only \(after) after the submit")
            let done = try await cluster.client.waitForJob("prompt", in: ["done", "failed"], within: .seconds(40))
            #expect(done["state"] == "done", "\(done.serialized())")
        }
    }

    @Test("Redis restarted mid-recording: the job goes on, /healthz says Redis is down meanwhile, and the API answers again after")
    func redisRestartMidJob() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("restart")
            let alice = try await Self.publisher(lab, room: room)
            defer { alice.terminate() }
            let cluster = try await WorkerCluster(lab: lab)
            defer { cluster.finish() }
            let worker = try await cluster.worker("steady")
            let created = try await cluster.client.post("/v1/recordings", #"{"id": "long", "room": "\#(room)", "duration": 16, "formats": ["webm", "wav"]}"#)
            #expect(created.status == 201, "\(created.text)")
            _ = try await cluster.client.waitForJob("long", in: ["running"], within: .seconds(30))

            await cluster.redis.kill()
            let health = try await cluster.client.get("/healthz")
            #expect(health.status == 503 && health.json?["redis"] == "down", "\(health.status) \(health.text)")
            #expect(try await cluster.client.get("/v1/jobs/long").status == 503)
            // Down long enough that a heartbeat failed (the worker saw the outage).
            try await pollUntil(timeout: .seconds(15), "a failed heartbeat") {
                ((try? await worker.metrics())?.value("agentd_worker_lease_renew_failures_total", ["worker": "steady"]) ?? 0) >= 1
            }
            try await cluster.redis.start()
            try await pollUntil(timeout: .seconds(20), "the API to answer again") { (try? await cluster.client.get("/healthz").status) == 200 }
            let done = try await cluster.client.waitForJob("long", in: ["done", "failed"], within: .seconds(40))
            #expect(done["state"] == "done" && done["attempts"]?.integerValue == 1 && done["reclaims"]?.integerValue == 0, "\(done.serialized())")
            let out = try #require(done["out"]?.stringValue)
            let files = try await Self.checkRecording(out)
            #expect(files.filter { $0.hasSuffix(".webm") } == ["alice.webm"], "\(files)")
            let seconds = Double(try RecordingChecks.samples(out + "/alice.wav").samples.count) / 48_000
            #expect(seconds > 13 && seconds < 19, "alice.wav lasts \(seconds) s")
        }
    }
}
