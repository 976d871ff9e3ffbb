import Agent
import Foundation
import TestSupport
import Testing

/// Files in daemon bots: only from under media_root (real paths), never a FIFO or a device, and
/// whatever a bot's files do, the daemon keeps answering and stops on SIGTERM. Runs `agentd serve`
/// as a child without the lab: these bots fail before they would connect.
@Suite("ServeMedia", .serialized)
struct ServeMediaTests {
    static func fileRecipe(_ path: String) -> String {
        #"{"recipe": {"name": "player", "tracks": {"audio": {"source": "file", "playlist": ["\#(path)"]}}}, "room": "r"}"#
    }

    /// Two FIFO bots used to take both threads of the cooperative pool: /healthz stopped
    /// answering and SIGTERM was never acted on.
    @Test("bots with a FIFO keep the daemon answering; they fail with a clear error; SIGTERM still stops it")
    func fifoBotsDoNotWedgeTheDaemon() async throws {
        let media = try ScratchDirectory("media")
        #expect(mkfifo(media.path("pipe.wav"), 0o644) == 0)
        #expect(mkfifo(media.path("pipe2.opus"), 0o644) == 0)
        let daemon = try await DaemonProcess.start(server: "ws://127.0.0.1:1/", maxJobs: 4, extra: ["media_root": media.directory.path])
        defer { daemon.finish() }
        let client = daemon.client
        var ids: [String] = []
        for file in ["pipe.wav", "pipe2.opus"] {
            let created = try await client.post("/v1/bots", Self.fileRecipe(file))
            #expect(created.status == 201, "\(created.text)")
            ids.append(try #require(created.json?["id"]?.stringValue))
        }
        for id in ids {
            let job = try await client.waitForJob(id, in: ["failed", "done"], within: .seconds(10))
            #expect(job["state"] == "failed", "\(job.serialized())")
            #expect(job["error"]?.stringValue?.contains("is a FIFO (named pipe), not a regular file") == true, "\(job.serialized())")
        }
        let health = try await client.get("/healthz")
        #expect(health.status == 200 && health.json?["status"] == "ok", "\(health.text)")
        daemon.process.send(signal: SIGTERM)
        try await pollUntil(timeout: .seconds(10), "agentd serve to stop on SIGTERM") { !daemon.process.isRunning }
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.stderr)")
    }

    @Test("media_root: files outside it (.., absolute, a symlink out, /dev/zero) are 400 naming the JSON path; none without it")
    func mediaRootConfinesFiles() async throws {
        let media = try ScratchDirectory("mediaroot")
        let outside = try ScratchDirectory("outside")
        try Data("RIFF".utf8).write(to: URL(fileURLWithPath: outside.path("secret.wav")))
        try FileManager.default.createSymbolicLink(atPath: media.path("escape.wav"), withDestinationPath: outside.path("secret.wav"))
        try FileManager.default.createSymbolicLink(atPath: media.path("zero.opus"), withDestinationPath: "/dev/zero")
        let daemon = try await DaemonProcess.start(server: "ws://127.0.0.1:1/", extra: ["media_root": media.directory.path])
        defer { daemon.finish() }
        for file in ["../\(outside.directory.lastPathComponent)/secret.wav", outside.path("secret.wav"), "escape.wav", "zero.opus", "missing.wav"] {
            let reply = try await daemon.client.post("/v1/bots", Self.fileRecipe(file))
            #expect(reply.status == 400, "\(file): \(reply.text)")
            let error = reply.json?["error"]?.stringValue ?? ""
            #expect(error.hasPrefix("recipe: $.tracks.audio.playlist[0]: "), "\(file): \(error)")
            #expect(error.contains("outside media_root") || error.contains("does not exist"), "\(file): \(error)")
        }
        #expect(try await daemon.client.get("/v1/jobs").json?["jobs"]?.arrayValue?.isEmpty == true)

        let closed = try await DaemonProcess.start(server: "ws://127.0.0.1:1/")
        defer { closed.finish() }
        let refused = try await closed.client.post("/v1/bots", Self.fileRecipe(outside.path("secret.wav")))
        #expect(refused.status == 400, "\(refused.text)")
        #expect(refused.json?["error"]?.stringValue?.contains("set media_root") == true, "\(refused.text)")
    }
}
