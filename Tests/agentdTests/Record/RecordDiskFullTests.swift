import Agent
import Foundation
import TestSupport
import Testing

/// Recording onto a disk that fills (a small tmpfs): `agentd record` exits 5 with one clear line,
/// every file is closed and decodes up to the failure, and the manifest is final with the error;
/// a daemon job ends `failed` the same way while the daemon goes on serving.
@Suite("RecordDiskFull", .enabled(if: LabEnvironment.shouldRun && SmallFileSystem.isAvailable), .serialized)
struct RecordDiskFullTests {
    /// About 10 s of a 400 kb/s publisher with its WAV: the disk fills while the recording runs.
    static let diskBytes = 3 << 20

    @Test("agentd record on a disk that fills: exit 5, playable files, a final manifest with the error")
    func recordFillsTheDisk() async throws {
        try await SharedResourceLock.lab.withExclusive { try await checkRecordFillsTheDisk() }
    }

    @Test("a daemon recording job on a disk that fills ends failed; the daemon keeps serving")
    func daemonJobFillsTheDisk() async throws {
        try await SharedResourceLock.lab.withExclusive { try await checkDaemonJobFillsTheDisk() }
    }

    private func checkRecordFillsTheDisk() async throws {
        let (lab, room, player, disk, scratch) = try await scenario("diskfull")
        defer { player.terminate(); disk.remove(); withExtendedLifetime(scratch) {} }
        let out = disk.file("rec")

        let recording = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--create", "--out", out, "--duration", "120", "--ice-allow", "agentd-lab0"],
            name: "agentd record")
        defer { recording.terminate() }
        try await pollUntil(timeout: .seconds(90), "agentd record to stop on the full disk") { !recording.isRunning }

        #expect(recording.exitStatus == 5, "\(recording.stderr)")
        let lines = recording.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(recording.stderr)")
        #expect(recording.stderr.hasPrefix("agentd: error: "), "\(recording.stderr)")
        #expect(recording.stderr.contains("No space left on device"), "\(recording.stderr)")
        // Full but for the space held back for the last manifest (256 KiB), given back at the end.
        #expect(disk.freeBytes < 512 * 1024, "the disk did not fill: \(disk.freeBytes) bytes free")
        try await checkFinalFiles(out, participant: "filler")
    }

    private func checkDaemonJobFillsTheDisk() async throws {
        let (lab, room, player, disk, scratch) = try await scenario("diskfull-serve")
        defer { player.terminate(); disk.remove(); withExtendedLifetime(scratch) {} }
        let daemon = try await DaemonProcess.start(lab: lab, outputRoot: disk.path)
        defer { daemon.finish() }

        let created = try await daemon.client.post("/v1/recordings", #"{"room": "\#(room)", "out": "full", "duration": 120, "create": true}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.json?["id"]?.stringValue)
        let ended = try await daemon.client.waitForJob(id, in: ["failed", "done"], within: .seconds(90))
        #expect(ended["state"] == "failed", "\(ended.serialized())")
        #expect(ended["error"]?.stringValue?.contains("No space left on device") == true, "\(ended.serialized())")
        try await checkFinalFiles(disk.file("full"), participant: "filler")

        // The daemon goes on: it answers, and takes (and refuses) jobs as before.
        #expect(daemon.process.isRunning)
        #expect(try await daemon.client.get("/healthz").json?["status"] == "ok")
        #expect(try await daemon.client.post("/v1/recordings", "{}").status == 400)
        #expect(try await daemon.client.get("/v1/jobs/\(id)").json?["state"] == "failed")
    }

    /// A fresh room with `agentd play` of a tone and a 400 kb/s pattern in it as "filler", looping
    /// until the test ends, the small disk to record onto, and the scratch directory holding the
    /// player's files (it loops, so they must outlive it).
    private func scenario(_ label: String) async throws -> (LabEnvironment, String, ChildProcess, SmallFileSystem, ScratchDirectory) {
        let lab = try LabEnvironment.required()
        let disk = try await SmallFileSystem(bytes: Self.diskBytes)
        let scratch = try ScratchDirectory(label)
        let room = LabEnvironment.freshRoom(label)
        let audio = scratch.path("tone.opus")
        let video = scratch.path("pattern.ivf")
        try await PlayMedia.toneOpus(audio, seconds: 10)
        try await PlayMedia.patternIVF(video, seconds: 10)
        let player = try ChildProcess(
            AgentdBinary.path,
            ["play", "--server", lab.janusWS, "--room", room, "--display", "filler", "--audio", audio, "--video", video,
             "--create", "--loop", "--duration", "150", "--ice-allow", "agentd-lab0"], name: "agentd play")
        return (lab, room, player, disk, scratch)
    }

    /// The manifest is final (failed, ended, with the disk's error) and every media file decodes
    /// cleanly up to where the disk filled, with something in it.
    private func checkFinalFiles(_ out: String, participant: String) async throws {
        let manifestData = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
        #expect(manifest["state"] as? String == "failed", "\(manifest)")
        #expect(manifest["ended_at"] is String, "\(manifest)")
        #expect((manifest["error"] as? String)?.contains("No space left on device") == true, "\(manifest)")

        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(names.allSatisfy { !$0.hasPrefix(".") }, "hidden files left behind: \(names)")
        let webm = out + "/\(participant).webm"
        let wav = out + "/\(participant).wav"
        #expect(FileManager.default.fileExists(atPath: webm), "\(names)")
        #expect(FileManager.default.fileExists(atPath: wav), "\(names)")
        let errors = try await RecordingChecks.decodeErrors(webm)
        #expect(errors.isEmpty, "\(participant).webm: \(errors.prefix(400))")
        #expect(Set(try await RecordingChecks.streamCodecs(webm)) == ["opus", "vp8"])
        let (samples, rate) = try RecordingChecks.samples(wav)
        #expect(rate == 48_000)
        #expect(samples.count > 48_000, "\(participant).wav holds \(samples.count) samples")
        #expect(try await RecordingChecks.decodeErrors(wav).isEmpty)
    }
}
