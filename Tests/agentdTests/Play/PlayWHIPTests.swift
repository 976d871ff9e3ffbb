import Foundation
import TestSupport
import Testing

/// Issue 12's WHIP acceptance: `agentd play --whip` publishes through the lab's simple-whip-server
/// into a Janus room that `agentd record` (through Janus) holds, and the recording passes the
/// usual checks: it decodes cleanly, the tone is there, the duration is the files', and the file
/// is named after the endpoint's label (the display simple-whip-server joins with). A wrong token
/// exits 3 and an endpoint nobody answers exits 4, each with one line.
@Suite("PlayWHIP", .enabled(if: LabEnvironment.shouldRunWHIP), .serialized)
struct PlayWHIPTests {
    static let iface = "agentd-lab0"

    /// Runs `agentd play --whip` to its end.
    func play(_ endpoint: String, token: String?, files: [String], timeout: Duration = .seconds(40)) async throws -> ChildProcess {
        var arguments = ["play", "--whip", endpoint, "--display", "whip-player"] + files + ["--ice-allow", Self.iface]
        if let token { arguments += ["--token", token] }
        let player = try ChildProcess(AgentdBinary.path, arguments, name: "agentd play --whip")
        try await pollUntil(timeout: timeout, "agentd play --whip to exit") { !player.isRunning }
        // The pipe's last bytes may be read a moment after the exit.
        try? await pollUntil(timeout: .seconds(2), "its stderr") { player.stderr.contains("agentd:") }
        return player
    }

    /// Plays `files` through a fresh endpoint into a fresh room that `agentd record --create`
    /// holds from before the publisher comes until after it left; returns the recording's
    /// directory (in `scratch`) and the player's stderr.
    func playAndRecord(label: String, in scratch: ScratchDirectory, files: [String]) async throws -> (out: String, player: String) {
        let lab = try LabEnvironment.required()
        let media = files
        let room = LabEnvironment.freshRoom("whip")
        let out = scratch.path("recording")
        return try await LabWHIPEndpoint.with(room: room, label: label) { endpoint in
            let recording = try ChildProcess(
                AgentdBinary.path,
                ["record", "--server", lab.janusWS, "--room", room, "--create", "--out", out, "--duration", "14", "--ice-allow", Self.iface],
                name: "agentd record")
            defer { recording.terminate() }
            // The room exists once the recording has joined it (its manifest is written at t=0).
            try await pollUntil(timeout: .seconds(20), "the recording to start") {
                FileManager.default.fileExists(atPath: out + "/manifest.json")
            }
            let player = try await play(endpoint.url, token: endpoint.token, files: media)
            #expect(player.exitStatus == 0, "\(player.stderr)")
            #expect(player.stderr.contains("stopped by end of files"), "\(player.stderr)")
            try await pollUntil(timeout: .seconds(30), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")
            return (out, player.stderr)
        }
    }

    /// The participant's entry in the final manifest: display, file name and its join and leave.
    func participant(_ out: String, display: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let participants = try #require(manifest["participants"] as? [[String: Any]])
        return try #require(participants.first { $0["display"] as? String == display }, "no \(display) in \(participants)")
    }

    /// The recorded file of `label` decodes cleanly, carries `codecs`, lasts about `seconds`, and
    /// its WAV holds the 440 Hz tone at full level while the participant was in the room.
    func checkRecording(_ out: String, label: String, codecs: Set<String>, seconds: Double) async throws {
        let entry = try participant(out, display: label)
        #expect(entry["name"] as? String == label, "the file name comes from the endpoint's label: \(entry)")
        let webm = out + "/\(label).webm"
        #expect(Set(try await RecordingChecks.streamCodecs(webm)) == codecs)
        let errors = try await RecordingChecks.decodeErrors(webm)
        #expect(errors.isEmpty, "\(errors.prefix(600))")
        let probe = try await RecordingChecks.run(
            "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", webm])
        let duration = try #require(Double(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(probe.output)")
        #expect(abs(duration - seconds) < 1.0, "\(label).webm lasts \(duration) s, the files \(seconds) s")

        let joined = try #require(entry["joined_ms"] as? Int)
        let left = try #require(entry["left_ms"] as? Int, "the endpoint's publisher left (the DELETE): \(entry)")
        let present = Double(left - joined) / 1000
        #expect(present >= seconds - 0.5 && present < seconds + 4, "in the room \(present) s for \(seconds) s of files")
        let (samples, rate) = try RecordingChecks.samples(out + "/\(label).wav")
        #expect(rate == 48_000)
        let middle = samples.dropFirst((joined + 1500) * 48).prefix(2 * 48_000)
        #expect(middle.count == 2 * 48_000, "the WAV covers the participant's time")
        #expect(goertzelPower(middle, frequency: 440) > 100 * goertzelPower(middle, frequency: 660))
        #expect(RecordingChecks.rms(middle) > 3000, "rms \(RecordingChecks.rms(middle))")
        print("PlayWHIP: \(label).webm \(duration) s, in the room \(present) s, tone rms \(Int(RecordingChecks.rms(middle)))")
    }

    @Test("a WAV (encoded to Opus) and a VP8 IVF played through WHIP are recorded from the Janus room")
    func wavAndIVF() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let label = "whip-wav-ivf"
            let scratch = try ScratchDirectory("play-whip-wav-ivf")
            let files = ["--audio", try await GeneratedSamples.toneWAV(in: scratch, seconds: 5),
                         "--video", try await GeneratedSamples.encoded("pattern-vp8.ivf", in: scratch)]
            let (out, player) = try await playAndRecord(label: label, in: scratch, files: files)
            print("PlayWHIP: \(player.split(separator: "\n").last ?? "")")
            try await checkRecording(out, label: label, codecs: ["opus", "vp8"], seconds: 5)
        }
    }

    @Test("a WebM (Opus + VP8, sent as stored) played through WHIP is recorded from the Janus room")
    func webm() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let label = "whip-webm"
            let scratch = try ScratchDirectory("play-whip-webm")
            let files = ["--video", try await GeneratedSamples.encoded("pattern.webm", in: scratch)]
            let (out, player) = try await playAndRecord(label: label, in: scratch, files: files)
            print("PlayWHIP: \(player.split(separator: "\n").last ?? "")")
            try await checkRecording(out, label: label, codecs: ["opus", "vp8"], seconds: 5)
        }
    }

    @Test("a wrong token exits 3 with one line naming the endpoint, never the token")
    func wrongToken() async throws {
        try await SharedResourceLock.lab.withShared {
            let scratch = try ScratchDirectory("play-whip-token")
            let wav = try await GeneratedSamples.toneWAV(in: scratch, seconds: 1)
            try await LabWHIPEndpoint.with(room: LabEnvironment.freshRoom("whiptoken"), label: "whip-token") { endpoint in
                let wrong = "wrong-\(endpoint.token)"
                let player = try await play(endpoint.url, token: wrong, files: ["--audio", wav])
                #expect(player.exitStatus == 3, "\(player.stderr)")
                let lines = player.stderr.split(separator: "\n").filter { $0.hasPrefix("agentd:") }
                #expect(lines.count == 1, "\(player.stderr)")
                #expect(lines.first?.hasPrefix("agentd: error: the WHIP endpoint refused us: \(endpoint.url) answered HTTP 403: Unauthorized (check --token") == true,
                        "\(player.stderr)")
                #expect(!player.stderr.contains(endpoint.token), "the token never shows: \(player.stderr)")
            }
        }
    }

    @Test("an endpoint nobody answers (a closed port, in the lab or on loopback) exits 4 with one line")
    func unreachable() async throws {
        try await SharedResourceLock.lab.withShared {
            let scratch = try ScratchDirectory("play-whip-unreachable")
            let wav = try await GeneratedSamples.toneWAV(in: scratch, seconds: 1)
            let base = try LabEnvironment.whipURL()
            let host = try #require(URLComponents(string: base)?.host)
            for url in ["http://\(host):7081/whip/endpoint/none", "http://127.0.0.1:9/whip/endpoint/none"] {
                let started = ContinuousClock.now
                let player = try await play(url, token: "t", files: ["--audio", wav])
                #expect(player.exitStatus == 4, "\(url): \(player.stderr)")
                let lines = player.stderr.split(separator: "\n").filter { $0.hasPrefix("agentd:") }
                #expect(lines.count == 1, "\(player.stderr)")
                #expect(lines.first?.hasPrefix("agentd: error: cannot reach the WHIP endpoint at \(url): connection refused") == true,
                        "\(player.stderr)")
                #expect(ContinuousClock.now - started < .seconds(10), "refused at once, not waited out")
            }
        }
    }
}
