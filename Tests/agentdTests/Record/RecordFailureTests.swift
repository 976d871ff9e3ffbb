import Foundation
import TestSupport
import Testing

/// `agentd record`'s contract exit codes and its behaviour when stopped or killed.
@Suite("RecordFailures", .serialized)
struct RecordFailureTests {
    static func temporaryPath(_ label: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("agentd-\(label)-\(UUID().uuidString)").path
    }

    func runRecord(_ arguments: [String], in directory: String? = nil) async throws -> (status: Int32, stderr: String) {
        let process = try ChildProcess(AgentdBinary.path, ["record"] + arguments, name: "agentd record", currentDirectory: directory)
        defer { process.terminate() }
        try await pollUntil(timeout: .seconds(30), "agentd record to exit") { !process.isRunning }
        return (process.exitStatus ?? -1, process.stderr)
    }

    @Test("an unreachable server exits 4 with one error line")
    func unreachableServer() async throws {
        let out = Self.temporaryPath("unreachable")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let (status, stderr) = try await runRecord(["--server", "ws://127.0.0.1:1/", "--room", "r", "--out", out, "--ice-allow", "lo"])
        #expect(status == 4)
        #expect(stderr.hasPrefix("agentd: error: cannot reach Janus"), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out), "a failed join left its directory behind")
    }

    @Test("an --out that cannot be written exits 5 before any connection is tried")
    func unwritableOutput() async throws {
        let file = Self.temporaryPath("plainfile")
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        // The server is unreachable too: 5, not 4, shows the output was checked first.
        let (status, stderr) = try await runRecord(["--server", "ws://127.0.0.1:1/", "--room", "r", "--out", file + "/rec"])
        #expect(status == 5, "\(stderr)")
        #expect(stderr.hasPrefix("agentd: error: cannot write to"))
    }

    @Test("an --out that holds a recording is refused (exit 5) and left as it was, even though the join would fail; --overwrite records into it")
    func refusesToOverwriteARecording() async throws {
        let scratch = try ScratchDirectory("holds")
        let out = scratch.path("rec")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let files = ["manifest.json": #"{"version": 1, "room": "old"}"#, "data.jsonl": #"{"t_ms": 1, "text": "keep me"}"#, "alice.wav": "RIFF...."]
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: out + "/" + name)) }
        let (status, stderr) = try await runRecord(["--server", "ws://127.0.0.1:1/", "--room", "r", "--out", out, "--ice-allow", "lo"])
        #expect(status == 5, "\(stderr)")
        #expect(stderr == "agentd: error: \(out) already holds a recording (alice.wav); it would be overwritten "
            + "(choose another --out or pass --overwrite)\n", "\(stderr)")
        for (name, text) in files {
            #expect(try String(contentsOfFile: out + "/" + name, encoding: .utf8) == text, "\(name) was touched")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == files.keys.sorted())

        let overwriting = try await runRecord(["--server", "ws://127.0.0.1:1/", "--room", "r", "--out", out, "--ice-allow", "lo", "--overwrite"])
        #expect(overwriting.status == 4, "with --overwrite it goes on to the (failing) join: \(overwriting.stderr)")
    }

    @Test("--out '' is a usage error (it used to record into the current directory)")
    func emptyOutIsAUsageError() async throws {
        let scratch = try ScratchDirectory("emptyout")
        let (status, stderr) = try await runRecord(["--server", "ws://127.0.0.1:1/", "--room", "r", "--out", "", "--ice-allow", "lo"],
                                                   in: scratch.directory.path)
        #expect(status == 2, "\(stderr)")
        #expect(stderr.hasPrefix("agentd: error: --out '' is not a directory"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == [])
    }

    @Test("an --out whose write probe fails exits 5 and leaves none of the directories it made")
    func failedProbeLeavesNoDirectories() async throws {
        let scratch = try ScratchDirectory("probe")
        // Past PATH_MAX for the probe file only: mkdir succeeds for every component, the probe fails.
        // Components of at most 250 bytes (NAME_MAX is 255: a longer last one failed its mkdir
        // instead, when the scratch directory's path length made it so), 4074-4075 bytes in all.
        var out = scratch.directory.path
        while 4075 - out.utf8.count >= 2 {
            out += "/" + String(repeating: "d", count: min(250, 4075 - out.utf8.count - 1))
        }
        let (status, stderr) = try await runRecord(["--server", "ws://127.0.0.1:1/", "--room", "r", "--out", out, "--ice-allow", "lo"])
        #expect(status == 5, "\(stderr)")
        #expect(stderr.contains("create probe file"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == [], "empty directories were left behind")
    }

    @Test("usage errors exit 2")
    func usageErrors() async throws {
        #expect(try await runRecord(["--room", "r"]).status == 2)
        #expect(try await runRecord(["--server", "http://x/", "--room", "r"]).status == 2)
        #expect(try await runRecord(["--server", "ws://x/", "--room", "r", "--formats", "mp3"]).status == 2)
        #expect(try await runRecord(["--server", "ws://x/", "--room", "r", "--ice-allow", "nosuchif0"]).status == 2)
    }

    @Test("a missing room without --create exits 3", .enabled(if: LabEnvironment.shouldRun))
    func missingRoom() async throws {
        let lab = try LabEnvironment.required()
        let out = Self.temporaryPath("missing")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let (status, stderr) = try await runRecord(
            ["--server", lab.janusWS, "--room", LabEnvironment.freshRoom("missing"), "--out", out, "--ice-allow", "agentd-lab0"])
        #expect(status == 3)
        #expect(stderr.contains("does not exist"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a wrong pin exits 3, the right one records", .enabled(if: LabEnvironment.shouldRun))
    func roomPin() async throws {
        try await SharedResourceLock.lab.withExclusive { try await checkRoomPin() }
    }

    private func checkRoomPin() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("pin")
        let publisher = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", "pinned", "--create",
             "--pin", "s3cret", "--duration", "30"])
        defer { publisher.terminate() }
        _ = try await publisher.waitForLine(prefix: "READY", within: .seconds(90))
        let out = Self.temporaryPath("pin")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let wrong = try await runRecord(["--server", lab.janusWS, "--room", room, "--pin", "nope", "--out", out, "--ice-allow", "agentd-lab0"])
        #expect(wrong.status == 3, "\(wrong.stderr)")
        let right = try await runRecord(
            ["--server", lab.janusWS, "--room", room, "--pin", "s3cret", "--out", out, "--duration", "2", "--ice-allow", "agentd-lab0"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/pinned.wav"))
    }

    @Test("SIGTERM finalizes; SIGKILL still leaves playable files", .enabled(if: LabEnvironment.shouldRun))
    func stopAndKill() async throws {
        try await SharedResourceLock.lab.withExclusive { try await checkStopAndKill() }
    }

    private func checkStopAndKill() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("kill")
        let publisher = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", "dora", "--create", "--duration", "40"])
        defer { publisher.terminate() }
        _ = try await publisher.waitForLine(prefix: "READY", within: .seconds(90))

        for signal in [SIGTERM, SIGKILL] {
            let out = Self.temporaryPath("signal\(signal)")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let recording = try ChildProcess(
                AgentdBinary.path, ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--ice-allow", "agentd-lab0"])
            defer { recording.terminate() }
            // The scenario: 5 s of recording, from when the recording started (its manifest).
            try await pollUntil(timeout: .seconds(20), "the recording to start") {
                FileManager.default.fileExists(atPath: out + "/manifest.json")
            }
            try await Task.sleep(for: .seconds(5))
            recording.send(signal: signal)
            try await pollUntil(timeout: .seconds(15), "agentd to exit") { !recording.isRunning }
            let manifestData = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
            let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
            if signal == SIGTERM {
                #expect(recording.exitStatus == 0, "\(recording.stderr)")
                #expect(manifest["state"] as? String == "finished")
                #expect(manifest["ended_at"] is String)
            } else {
                #expect(manifest["state"] as? String == "recording")
            }
            let seconds = try await RecordingChecks.formatDuration(out + "/dora.webm")
            print("after signal \(signal): dora.webm lasts \(seconds) s by ffprobe")
            if signal == SIGKILL {
                // Clusters close every half second, so at most that much is lost to a kill.
                #expect(seconds >= 4, "after kill -9 at 5 s: ffprobe duration \(seconds) s")
            }
            let codecs = try await RecordingChecks.streamCodecs(out + "/dora.webm")
            #expect(codecs.contains("opus") && codecs.contains("vp8"), "after signal \(signal): \(codecs)")
            let errors = try await RecordingChecks.decodeErrors(out + "/dora.webm")
            #expect(errors.isEmpty, "after signal \(signal): \(errors)")
            let (samples, _) = try RecordingChecks.samples(out + "/dora.wav")
            #expect(samples.count > 48_000, "after signal \(signal): \(samples.count) samples")
        }
    }
}
