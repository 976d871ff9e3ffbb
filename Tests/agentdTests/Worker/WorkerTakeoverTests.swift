import Agent
import Foundation
import TestSupport
import Testing

/// Issue 16's takeovers against the lab: a worker killed mid-recording, and one frozen past its
/// lease and then resumed. Leases of 6 s with heartbeats every 2 s keep the waits short.
@Suite("WorkerTakeover", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct WorkerTakeoverTests {
    static let lease = 6

    /// Waits until `path` has held media for 4 s (and 40 kB of it).
    static func waitForMedia(_ path: String) async throws {
        let size = { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
        try await pollUntil(timeout: .seconds(60), "\(path) to be written") { size() > 0 }
        let since = ContinuousClock.now
        try await pollUntil(timeout: .seconds(60), "\(path) to hold 4 s of media") { ContinuousClock.now - since > .seconds(4) && size() > 40_000 }
    }

    /// The job running on a worker: (its JSON, the holder's name).
    static func running(_ cluster: WorkerCluster, _ id: String) async throws -> (job: JSONValue, worker: String) {
        let job = try await cluster.client.waitForJob(id, in: ["running"], within: .seconds(30))
        return (job, try #require(job["worker"]?.stringValue))
    }

    /// The manifest's parts of `name` and its gaps.
    static func manifest(_ out: String, name: String = "alice") throws -> (parts: [[String: Any]], gaps: [[String: Any]], participants: Int) {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let participants = manifest["participants"] as? [[String: Any]] ?? []
        let files = participants.filter { $0["name"] as? String == name }.flatMap { $0["files"] as? [[String: Any]] ?? [] }
        return (files.filter { ($0["path"] as? String)?.hasSuffix(".webm") == true }, manifest["gaps"] as? [[String: Any]] ?? [],
                participants.count)
    }

    @Test("kill -9 of the worker mid-recording: another claims it within lease + 5 s and continues in the directory; one gap, two parts, both decode")
    func killedWorkerIsTakenOver() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("takeover")
            let alice = try await WorkerLabTests.publisher(lab, room: room)
            defer { alice.terminate() }
            let cluster = try await WorkerCluster(lab: lab)
            defer { cluster.finish() }
            let workers = [try await cluster.worker("w1", lease: Self.lease), try await cluster.worker("w2", lease: Self.lease)]
            let created = try await cluster.client.post("/v1/recordings", #"{"id": "crash", "room": "\#(room)", "formats": ["webm", "wav"]}"#)
            #expect(created.status == 201, "\(created.text)")
            let (job, holder) = try await Self.running(cluster, "crash")
            let out = try #require(job["out"]?.stringValue)
            try await Self.waitForMedia(out + "/alice.webm")

            let victim = try #require(workers.first { $0.name == holder })
            victim.process.send(signal: SIGKILL)
            let killed = ContinuousClock.now
            var taken: JSONValue?
            try await pollUntil(timeout: .seconds(40), "another worker to take the job") {
                taken = try? await cluster.client.get("/v1/jobs/crash").json
                return taken?["worker"]?.stringValue != holder && taken?["reclaims"]?.integerValue == 1
            }
            let delay = ContinuousClock.now - killed
            print("WorkerTakeover: \(holder) killed; \(taken?["worker"]?.stringValue ?? "?") claimed the job after \(delay)")
            #expect(delay <= .seconds(Self.lease + 5), "claimed after \(delay)")
            try await Self.waitForMedia(out + "/alice.part2.webm")
            #expect(try await cluster.client.delete("/v1/jobs/crash").status == 200)
            let done = try await cluster.client.waitForJob("crash", in: ["done", "failed"], within: .seconds(30))
            #expect(done["state"] == "done" && done["attempts"]?.integerValue == 2, "\(done.serialized())")

            let (parts, gaps, participants) = try Self.manifest(out)
            print("WorkerTakeover: parts \(parts.map { "\($0["path"] ?? "?")@\($0["start_ms"] ?? "?")" }), gaps \(gaps)")
            #expect(participants == 1)
            #expect(parts.compactMap { $0["path"] as? String } == ["alice.webm", "alice.part2.webm"])
            #expect(gaps.count == 1 && gaps.first?["reason"] as? String == "continued", "\(gaps)")
            if parts.count == 2, let firstStart = parts[0]["start_ms"] as? Int, let secondStart = parts[1]["start_ms"] as? Int {
                #expect(secondStart - firstStart > 4000, "the second part starts after the first's media")
            }
            for part in parts.compactMap({ $0["path"] as? String }) {
                let errors = try await RecordingChecks.decodeErrors(out + "/" + part)
                #expect(errors.isEmpty, "\(part): \(errors.prefix(400))")
                let frames = try await RecordingChecks.videoFrames(out + "/" + part)
                #expect(frames >= 60, "\(part): \(frames) frames")
            }
        }
    }

    @Test("a worker frozen past its lease and resumed is fenced: it stops, writes no manifest, and the job is recorded once")
    func frozenWorkerIsFenced() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("frozen")
            let alice = try await WorkerLabTests.publisher(lab, room: room)
            defer { alice.terminate() }
            let cluster = try await WorkerCluster(lab: lab)
            defer { cluster.finish() }
            let workers = [try await cluster.worker("w1", lease: Self.lease), try await cluster.worker("w2", lease: Self.lease)]
            let created = try await cluster.client.post("/v1/recordings", #"{"id": "frozen", "room": "\#(room)", "formats": ["webm", "wav"]}"#)
            #expect(created.status == 201, "\(created.text)")
            let (job, holder) = try await Self.running(cluster, "frozen")
            let out = try #require(job["out"]?.stringValue)
            try await Self.waitForMedia(out + "/alice.webm")
            let frozen = try #require(workers.first { $0.name == holder })

            frozen.process.send(signal: SIGSTOP)
            defer { frozen.process.send(signal: SIGCONT) }
            try await pollUntil(timeout: .seconds(40), "another worker to take the job") {
                let job = try? await cluster.client.get("/v1/jobs/frozen").json
                return job?["worker"]?.stringValue != holder && job?["reclaims"]?.integerValue == 1 && job?["state"] == "running"
            }
            try await Self.waitForMedia(out + "/alice.part2.webm")
            frozen.process.send(signal: SIGCONT)
            // From the resume on, the manifest is read every 20 ms: a stale holder writing it (its
            // refresh, or its final manifest when it stops) would show as a manifest without part
            // 2 until the new holder's next refresh, 2 s later.
            let firstPart = out + "/alice.webm"
            let size = { ((try? FileManager.default.attributesOfItem(atPath: firstPart))?[.size] as? Int) ?? 0 }
            var staleManifests = 0
            var reads = 0
            var letGoAt: ContinuousClock.Instant?
            var stoppedAt = 0
            let deadline = ContinuousClock.now + .seconds(40)
            while ContinuousClock.now < deadline {
                if let parts = try? Self.manifest(out).parts.compactMap({ $0["path"] as? String }) {
                    reads += 1
                    if !parts.contains("alice.part2.webm") { staleManifests += 1 }
                }
                if letGoAt == nil, ((try? await frozen.metrics())?.value("agentd_worker_jobs_held", ["worker": holder]) ?? 1) == 0 {
                    letGoAt = .now
                    stoppedAt = size()
                }
                // A refresh period and more past the resumed worker's end.
                if let letGoAt, ContinuousClock.now - letGoAt > .seconds(6) { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let fenced = try await frozen.metrics().value("agentd_worker_jobs_fenced_total", ["worker": holder]) ?? 0
            print("WorkerTakeover: the resumed worker was fenced \(Int(fenced)) time(s); \(reads) manifest reads, \(staleManifests) without part 2")
            #expect(letGoAt != nil, "the resumed worker never let go of the job")
            #expect(fenced >= 1)
            #expect(reads > 100 && staleManifests == 0, "the fenced worker wrote the manifest: \(staleManifests) of \(reads) reads lacked part 2")
            #expect(size() == stoppedAt, "the fenced worker still writes alice.webm")
            let current = try #require(try await cluster.client.get("/v1/jobs/frozen").json)
            #expect(current["worker"]?.stringValue != holder && current["state"] == "running", "\(current.serialized())")

            #expect(try await cluster.client.delete("/v1/jobs/frozen").status == 200)
            let done = try await cluster.client.waitForJob("frozen", in: ["done", "failed"], within: .seconds(30))
            #expect(done["state"] == "done", "\(done.serialized())")
            let final = try Self.manifest(out)
            #expect(final.participants == 1 && final.parts.count == 2 && final.gaps.count == 1, "\(final.parts) \(final.gaps)")
            for part in final.parts.compactMap({ $0["path"] as? String }) {
                let errors = try await RecordingChecks.decodeErrors(out + "/" + part)
                #expect(errors.isEmpty, "\(part): \(errors.prefix(400))")
            }
        }
    }
}
