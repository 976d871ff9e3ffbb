import Agent
import AgentdCore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import agentd

/// The API's contract without the lab: auth, status codes, the jobs list and stop, the job
/// limit and shutdown, on an in-process daemon with a test bot factory.
@Suite("ServeAPI", .serialized)
struct ServeAPITests {
    @Test("/v1 needs the bearer token (401 without or wrong); /healthz and /metrics do not")
    func auth() async throws {
        let daemon = try InProcessDaemon()
        var unauthenticated = daemon.client
        unauthenticated.token = nil
        let missing = try await unauthenticated.get("/v1/jobs")
        #expect(missing.status == 401)
        #expect(missing.json?["error"]?.stringValue?.contains("bearer token") == true, "\(missing.text)")
        #expect(try await daemon.client.call("GET", "/v1/jobs", token: "wrong-token").status == 401)
        #expect(try await daemon.client.call("GET", "/v1/jobs", token: InProcessDaemon.token + "x").status == 401)
        #expect(try await unauthenticated.get("/v1/nothing-here").status == 401, "unknown /v1 paths reveal nothing either")
        #expect(try await unauthenticated.get("/v1/openapi.json").status == 401)
        let health = try await unauthenticated.get("/healthz")
        #expect(health.status == 200)
        #expect(health.json?["status"] == "ok")
        #expect(try await unauthenticated.get("/metrics").status == 200)
        #expect(try await daemon.client.get("/v1/jobs").status == 200)
        await daemon.shutdown()
        #expect(!daemon.log.contains(InProcessDaemon.token))
    }

    @Test("bad bodies are 400 with a message naming the field; unknown ids 404; wrong methods 405")
    func badRequests() async throws {
        let daemon = try InProcessDaemon()
        let client = daemon.client
        let cases: [(body: String, says: String)] = [
            ("{not json", "not valid JSON"),
            ("[1,2]", "JSON object"),
            (#"{"server": "ws://127.0.0.1:1/"}"#, "room is required"),
            (#"{"room": "r"}"#, "server is required"),
            (#"{"server": "http://x/", "room": "r"}"#, "ws:// or wss://"),
            (#"{"server": "ws://127.0.0.1:1/", "room": "no spaces allowed"}"#, "room must be"),
            (#"{"server": "ws://127.0.0.1:1/", "room": "r", "formats": "webm,mp3"}"#, "formats"),
            (#"{"server": "ws://127.0.0.1:1/", "room": "r", "duration": -1}"#, "duration"),
            (#"{"server": "ws://127.0.0.1:1/", "room": "r", "out": "../escape"}"#, "out must be"),
            (#"{"server": "ws://127.0.0.1:1/", "room": "r", "colour": "red"}"#, "unknown field(s) colour"),
        ]
        for (body, says) in cases {
            let reply = try await client.post("/v1/recordings", body)
            #expect(reply.status == 400, "\(body) → \(reply.status) \(reply.text)")
            #expect(reply.json?["error"]?.stringValue?.contains(says) == true, "\(body) → \(reply.text)")
        }
        #expect(try await client.post("/v1/bots", #"{"server": "ws://x/"}"#).status == 400)
        #expect(try await client.post("/v1/bots", #"{"recipe": "by-name"}"#).json?["error"]?.stringValue?.contains("inline") == true)
        #expect(try await client.get("/v1/jobs/0123456789abcdef").status == 404)
        #expect(try await client.delete("/v1/jobs/0123456789abcdef").status == 404)
        let wrongMethod = try await client.call("PUT", "/v1/jobs")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"] == "GET")
        #expect(try await client.get("/nowhere").status == 404)
        #expect(try await client.get("/v1/jobs").json?["jobs"]?.arrayValue?.isEmpty == true, "a refused body made no job")
        await daemon.shutdown()
    }

    @Test("bot jobs: create (201), list, get, DELETE → stopping → done; a failing bot ends failed with its reason")
    func botJobs() async throws {
        let daemon = try InProcessDaemon()
        let client = daemon.client
        let created = try await client.post("/v1/bots", #"{"recipe": {"name": "parked"}, "room": "lobby"}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.json?["id"]?.stringValue)
        #expect(created.json?["kind"] == "bot")
        _ = try await client.waitForJob(id, in: ["running"], within: .seconds(5))
        let listed = try await client.get("/v1/jobs").json?["jobs"]?.arrayValue ?? []
        #expect(listed.compactMap { $0["id"]?.stringValue } == [id])

        let stopping = try await client.delete("/v1/jobs/\(id)")
        #expect(stopping.status == 200)
        #expect(["stopping", "done"].contains(stopping.json?["state"]?.stringValue ?? ""), "\(stopping.text)")
        let done = try await client.waitForJob(id, in: ["done"], within: .seconds(5))
        #expect(done["error"] == .null)
        #expect(done["stopped_by"] == "request")
        #expect(done["ended_at"]?.stringValue != nil)

        let failing = try await client.post("/v1/bots", #"{"recipe": {"fail": "the recipe broke"}}"#)
        let failingID = try #require(failing.json?["id"]?.stringValue)
        let failed = try await client.waitForJob(failingID, in: ["failed"], within: .seconds(5))
        #expect(failed["error"] == "the recipe broke")
        #expect(try await client.get("/healthz").status == 200, "the daemon stays up")
        await daemon.shutdown()
    }

    @Test("a bot job's server, room, token, pin, create and display reach the bot as one patch; the token and pin reach no answer or log; an inline recipe starts no program")
    func botJoinFields() async throws {
        let seen = Mutex<BotJobRequest?>(nil)
        let daemon = try InProcessDaemon(botFactory: { (request: BotJobRequest) throws(BotJobRejection) -> any JobWork in
            seen.withLock { $0 = request }
            return try ParkedBot.factory(request)
        })
        let body = #"{"recipe": {}, "server": "ws://127.0.0.1:9/", "room": "lobby", "token": "tok-5ecret", "pin": "pin-5ecret", "create": true, "display": "Greeter"}"#
        let created = try await daemon.client.post("/v1/bots", body)
        #expect(created.status == 201, "\(created.text)")
        let request = try #require(seen.withLock { $0 })
        #expect(request.join == RoomJoinPatch(
            server: "ws://127.0.0.1:9/", room: "lobby", token: "tok-5ecret", pin: "pin-5ecret", create: true, display: "Greeter"))
        for (field, value) in [("token", "1"), ("pin", "\"\""), ("create", "\"yes\""), ("display", "\"\"")] {
            let refused = try await daemon.client.post("/v1/bots", #"{"recipe": {}, "\#(field)": \#(value)}"#)
            #expect(refused.status == 400 && refused.text.contains(field), "\(field): \(refused.text)")
        }
        await daemon.shutdown()

        // The full build's factory, into a server that is not there: the job shows the room and
        // display it was given and fails with the reason, and neither secret is anywhere.
        let loops = LoopGroup(name: "test.botjoin")
        defer { loops.shutdown() }
        let real = try InProcessDaemon(botFactory: RecipeBotJobs.factory(
            recipes: RecipeLibrary(directory: Repository.root.appendingPathComponent("recipes")),
            environment: RecipeEnvironment(loops: loops, log: { _ in })))
        let tone = #"{"recipe": "tone", "server": "ws://127.0.0.1:9/", "room": "lobby", "token": "tok-5ecret", "pin": "pin-5ecret", "display": "Greeter"}"#
        let started = try await real.client.post("/v1/bots", tone)
        #expect(started.status == 201, "\(started.text)")
        let id = try #require(started.json?["id"]?.stringValue)
        let failed = try await real.client.waitForJob(id, in: ["failed"], within: .seconds(20))
        #expect(failed["room"] == "lobby" && failed["display"] == "Greeter", "the job shows the patched join: \(failed.serialized())")
        let jobs = try await real.client.get("/v1/jobs").text
        // An inline recipe may start no program (any caller could run anything on this host);
        // a recipe of the daemon's own directory may, and the same program inline is refused.
        for (field, agent) in [("$.agent.responder.command", #"{"responder": {"type": "command", "command": ["/bin/sh", "-c", "touch /tmp/pwned"]}}"#),
                               ("$.agent.command", #"{"command": ["/bin/sh"], "responder": {"type": "rules", "rules": [{"match": "x", "say": "y"}]}}"#)] {
            let inline = #"{"recipe": {"name": "a", "tracks": {"audio": {"source": "speech"}}, "agent": \#(agent)}, "server": "ws://127.0.0.1:9/", "room": "lobby"}"#
            let refused = try await real.client.post("/v1/bots", inline)
            #expect(refused.status == 400 && refused.text.contains(field) && refused.text.contains("starts no programs"), "\(refused.text)")
        }
        let captions = #"{"recipe": {"name": "c", "tracks": {"audio": {"source": "silence"}}, "captions": {"command": ["/bin/sh"]}}, "server": "ws://127.0.0.1:9/", "room": "lobby"}"#
        #expect(try await real.client.post("/v1/bots", captions).status == 400)
        let named = try await real.client.post("/v1/bots", #"{"recipe": "agent", "server": "ws://127.0.0.1:9/", "room": "lobby"}"#)
        #expect(named.status == 201, "the shipped agent recipe (rules, pocketsphinx) runs: \(named.text)")
        await real.shutdown()
        for text in [started.text, failed.serialized(), jobs, real.log] {
            #expect(!text.contains("5ecret"), "\(text)")
        }
    }

    @Test("the job limit answers 429 with a message; a stopped job frees its slot; shutdown answers 503 and stops every job")
    func limitAndShutdown() async throws {
        let daemon = try InProcessDaemon(maxJobs: 2)
        let client = daemon.client
        let first = try #require(try await client.post("/v1/bots", #"{"recipe": {}}"#).json?["id"]?.stringValue)
        let second = try #require(try await client.post("/v1/bots", #"{"recipe": {}}"#).json?["id"]?.stringValue)
        let refused = try await client.post("/v1/bots", #"{"recipe": {}}"#)
        #expect(refused.status == 429)
        #expect(refused.json?["error"]?.stringValue?.contains("max_jobs") == true, "\(refused.text)")
        let refusedRecording = try await client.post("/v1/recordings", #"{"server": "ws://127.0.0.1:1/", "room": "r"}"#)
        #expect(refusedRecording.status == 429, "the limit counts every kind")

        _ = try await client.delete("/v1/jobs/\(first)")
        _ = try await client.waitForJob(first, in: ["done"], within: .seconds(5))
        // This one takes a moment to stop, so the API can be asked while the daemon shuts down.
        let third = try await client.post("/v1/bots", #"{"recipe": {"linger_ms": 1500}}"#)
        #expect(third.status == 201, "\(third.text)")
        let thirdID = try #require(third.json?["id"]?.stringValue)

        let shutdown = Task { await daemon.daemon.shutdown() }
        let deadline = ContinuousClock.now + .seconds(5)
        while try await client.get("/healthz").json?["accepting_jobs"] != false, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let late = try await client.post("/v1/bots", #"{"recipe": {}}"#)
        #expect(late.status == 503, "\(late.text)")
        #expect(late.json?["error"]?.stringValue?.contains("shutting down") == true)
        #expect(try await client.state(of: thirdID) == "stopping")
        await shutdown.value
        for id in [second, thirdID] {
            #expect(await daemon.daemon.registry.job(id)?["state"] == "done", "\(id) not stopped by the shutdown")
        }
        do {
            _ = try await daemon.daemon.registry.submit(kind: .bot, work: ParkedBot(failure: nil))
            Issue.record("a job was accepted after shutdown")
        } catch {
            #expect(error == .shuttingDown)
        }
    }

    @Test("an out that exists or holds a recording is a 409 with a clear message; nothing in it is touched")
    func outThatIsTakenIs409() async throws {
        let daemon = try InProcessDaemon()
        let client = daemon.client
        let taken = daemon.outputRoot + "/taken"
        try FileManager.default.createDirectory(atPath: taken, withIntermediateDirectories: true)
        try Data(#"{"version": 1}"#.utf8).write(to: URL(fileURLWithPath: taken + "/manifest.json"))
        let reply = try await client.post("/v1/recordings", #"{"server": "ws://127.0.0.1:1/", "room": "r", "out": "taken"}"#)
        #expect(reply.status == 409, "\(reply.text)")
        #expect(reply.json?["error"]?.stringValue == "out taken already holds a recording (manifest.json) under the output root (choose another out)",
                "\(reply.text)")
        try FileManager.default.createDirectory(atPath: daemon.outputRoot + "/empty", withIntermediateDirectories: true)
        let empty = try await client.post("/v1/recordings", #"{"server": "ws://127.0.0.1:1/", "room": "r", "out": "empty"}"#)
        #expect(empty.status == 409, "\(empty.text)")
        #expect(empty.json?["error"]?.stringValue?.contains("already exists") == true, "\(empty.text)")
        #expect(try String(contentsOfFile: taken + "/manifest.json", encoding: .utf8) == #"{"version": 1}"#)
        #expect(try await client.get("/v1/jobs").json?["jobs"]?.arrayValue?.isEmpty == true)
        await daemon.shutdown()
    }

    /// Check-then-create used to let two jobs share one `out`: both saw no directory, both wrote
    /// into it. The directory is now made (mkdir, atomic) before the 201.
    @Test("concurrent POST /v1/recordings for one out: exactly one gets it, the others 409")
    func concurrentSubmissionsForOneOut() async throws {
        let daemon = try InProcessDaemon(maxJobs: 16)
        let client = daemon.client
        // Janus "answers" never: every accepted job stays joining while the others are decided.
        let janus = try SilentListener()
        let body = #"{"server": "\#(janus.url)", "room": "race", "out": "shared/rec"}"#
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await client.post("/v1/recordings", body).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 201 }.count == 1, "\(statuses.sorted())")
        #expect(statuses.filter { $0 == 409 }.count == 7, "\(statuses.sorted())")
        #expect(try await client.get("/v1/jobs").json?["jobs"]?.arrayValue?.count == 1)
        // Without out, the default <room>-<stamp> of jobs started in one second gets -2, -3, ...
        let defaults = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<3 {
                group.addTask { try await client.post("/v1/recordings", #"{"server": "\#(janus.url)", "room": "same"}"#).json?["out"]?.stringValue }
            }
            return try await group.reduce(into: [String]()) { if let out = $1 { $0.append(out) } }
        }
        #expect(Set(defaults).count == defaults.count, "\(defaults)")
        await daemon.shutdown()
    }

    @Test("display is bounded (256 bytes, 64 characters): a 1 MB display is a 400, as are oversized strings and lists")
    func bodyStringsAreBounded() async throws {
        let daemon = try InProcessDaemon()
        let client = daemon.client
        let huge = String(repeating: "d", count: 1_000_000 - 200)
        let clustered = "a" + String(repeating: "\u{0301}", count: 300)
        let cases: [(body: String, says: String)] = [
            (#"{"server": "ws://127.0.0.1:1/", "room": "r", "display": "\#(huge)"}"#, "display must be"),
            (#"{"server": "ws://127.0.0.1:1/", "room": "r", "display": "\#(clustered)"}"#, "display must be a display name of 1-64 characters and at most 256 bytes"),
            (#"{"server": "ws://127.0.0.1:1/", "room": "r", "token": "\#(String(repeating: "t", count: 5000))"}"#, "token must be at most 4096 bytes"),
            (#"{"server": "ws://127.0.0.1:1/", "room": "r", "formats": [\#(Array(repeating: "\"wav\"", count: 1000).joined(separator: ","))]}"#, "formats must list at most"),
        ]
        for (body, says) in cases {
            let reply = try await client.post("/v1/recordings", body)
            #expect(reply.status == 400, "\(says): \(reply.status)")
            #expect(reply.json?["error"]?.stringValue?.hasPrefix(says) == true, "\(reply.text.prefix(300))")
        }
        #expect(try await client.get("/v1/jobs").json?["jobs"]?.arrayValue?.isEmpty == true)
        await daemon.shutdown()
    }

    @Test("ws://user:pass@host: the job JSON, the manifest's server, the error and the log show ws://***@host")
    func serverCredentialsAreRedacted() async throws {
        let daemon = try InProcessDaemon()
        let janus = try SilentListener()
        let server = "ws://agent:s3cretpw@127.0.0.1:\(janus.port)/"
        let created = try await daemon.client.post("/v1/recordings", #"{"server": "\#(server)", "room": "r", "out": "creds"}"#)
        #expect(created.status == 201, "\(created.text)")
        let shown = "ws://***@127.0.0.1:\(janus.port)/"
        #expect(created.json?["server"]?.stringValue == shown, "\(created.text)")
        let manifest = daemon.outputRoot + "/creds/manifest.json"
        try await pollUntil(timeout: .seconds(10), "the first manifest") { FileManager.default.fileExists(atPath: manifest) }
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        #expect(text.contains("***@127.0.0.1:\(janus.port)"), "\(text)")
        #expect(!text.contains("s3cretpw"), "\(text)")
        let unreachable = try await daemon.client.post("/v1/recordings", #"{"server": "ws://agent:s3cretpw@127.0.0.1:1/", "room": "r"}"#)
        let id = try #require(unreachable.json?["id"]?.stringValue)
        let failed = try await daemon.client.waitForJob(id, in: ["failed"], within: .seconds(10))
        #expect(failed["error"]?.stringValue?.contains("ws://***@127.0.0.1:1/") == true, "\(failed.serialized())")
        #expect(!failed.serialized().contains("s3cretpw"))
        let jobs = try await daemon.client.get("/v1/jobs").text
        #expect(!jobs.contains("s3cretpw") && !jobs.contains("agent:"), "\(jobs)")
        await daemon.shutdown()
        #expect(!daemon.log.contains("s3cretpw"), "\(daemon.log)")
    }
}
