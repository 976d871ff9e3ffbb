import Foundation
import TestSupport
import Testing

/// `agentd play` with stored Opus and VP8 sent as they are, checked by recording the room with
/// `agentd record`; and its refusal of unreadable files before it joins anything.
@Suite("Play", .serialized)
struct PlayTests {
    func agentd(_ arguments: [String], timeout: Duration = .seconds(40)) async throws -> ChildProcess {
        let process = try ChildProcess(AgentdBinary.path, arguments, name: "agentd \(arguments.first ?? "")")
        try await pollUntil(timeout: timeout, "agentd \(arguments.first ?? "") to exit") { !process.isRunning }
        return process
    }

    @Test("unreadable or unsupported files exit 2 before any connection is tried")
    func badFiles() async throws {
        let scratch = try ScratchDirectory("play-bad")
        let garbage = scratch.path("garbage.ivf")
        _ = FileManager.default.createFile(atPath: garbage, contents: Data((0..<100).map { UInt8($0) }))
        // Any rate is resampled now, so a WAV is refused only when libsndfile cannot read it.
        let garbageWAV = scratch.path("garbage.wav")
        _ = FileManager.default.createFile(atPath: garbageWAV, contents: Data((0..<100).map { UInt8(($0 * 37) & 0xff) }))
        let unreachable = ["play", "--server", "ws://127.0.0.1:1/", "--room", "r", "--display", "d"]
        for files in [["--video", garbage], ["--audio", scratch.path("song.mp3")], ["--audio", scratch.path("missing.opus")], ["--audio", garbageWAV]] {
            let process = try await agentd(unreachable + files)
            #expect(process.exitStatus == 2, "\(files): \(process.stderr)")
            #expect(process.stderr.hasPrefix("agentd: error: cannot"), "\(process.stderr)")
        }
        #expect(try await agentd(unreachable).exitStatus == 2)  // neither --audio nor --video
    }

    @Test("stored Opus and VP8 are played into a room and recorded back cleanly", .enabled(if: LabEnvironment.shouldRun))
    func playsIntoARoom() async throws {
        try await SharedResourceLock.lab.withExclusive { try await playAndRecord() }
    }

    @Test("a 48 kHz WAV is encoded to Opus and played", .enabled(if: LabEnvironment.shouldRun))
    func playsAWAV() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let scratch = try ScratchDirectory("play-wav")
            let wav = scratch.path("tone-660.wav")
            #expect(try await runTool("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", wav, "synth", "8", "sine", "660", "vol", "0.5"]).status == 0)
            let room = LabEnvironment.freshRoom("playwav")
            let out = scratch.path("recording")
            let player = try ChildProcess(
                AgentdBinary.path,
                ["play", "--server", lab.janusWS, "--room", room, "--display", "wav", "--audio", wav, "--create", "--ice-allow", "agentd-lab0"])
            defer { player.terminate() }
            let recording = try await agentd(
                ["record", "--server", lab.janusWS, "--room", room, "--create", "--out", out, "--duration", "5", "--ice-allow", "agentd-lab0"])
            #expect(recording.exitStatus == 0, "\(recording.stderr)")
            let (samples, _) = try RecordingChecks.samples(out + "/wav.wav")
            let middle = samples.dropFirst(2 * 48_000).prefix(2 * 48_000)
            #expect(goertzelPower(middle, frequency: 660) > 100 * goertzelPower(middle, frequency: 440))
            #expect(RecordingChecks.rms(middle) > 3000, "the tone arrived at full level")
        }
    }

    private func playAndRecord() async throws {
        let lab = try LabEnvironment.required()
        let scratch = try ScratchDirectory("play")
        let audio = scratch.path("tone.opus")
        let video = scratch.path("pattern.ivf")
        try await PlayMedia.toneOpus(audio, seconds: 10)
        try await PlayMedia.patternIVF(video, seconds: 10)
        let room = LabEnvironment.freshRoom("play")
        let out = scratch.path("recording")
        let player = try ChildProcess(
            AgentdBinary.path,
            ["play", "--server", lab.janusWS, "--room", room, "--display", "player", "--audio", audio, "--video", video,
             "--create", "--ice-allow", "agentd-lab0"], name: "agentd play")
        defer { player.terminate() }
        let recording = try await agentd(
            ["record", "--server", lab.janusWS, "--room", room, "--create", "--out", out, "--duration", "6", "--ice-allow", "agentd-lab0"])
        #expect(recording.exitStatus == 0, "\(recording.stderr)")
        try await pollUntil(timeout: .seconds(20), "agentd play to finish the files") { !player.isRunning }
        #expect(player.exitStatus == 0, "\(player.stderr)")
        #expect(player.stderr.contains("stopped by end of files"), "\(player.stderr)")

        let webm = out + "/player.webm"
        let streams = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", webm])
        #expect(streams.output.contains("opus") && streams.output.contains("vp8,320,240"), "\(streams.output)")
        let errors = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", webm, "-f", "null", "-"], includeStderr: true)
        #expect(errors.output.isEmpty, "\(errors.output.prefix(600))")
        let (samples, _) = try RecordingChecks.samples(out + "/player.wav")
        let middle = samples.dropFirst(3 * 48_000).prefix(2 * 48_000)
        #expect(goertzelPower(middle, frequency: 440) > 100 * goertzelPower(middle, frequency: 660))
    }
}
