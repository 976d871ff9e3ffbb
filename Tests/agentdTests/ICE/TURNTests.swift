import Foundation
import TestSupport
import Testing

/// Issue 13's TURN acceptance, through the lab's coturn (`scripts/lab turn up`). agentd gathers
/// on the TURN client interface (agentd-turn0, 10.77.2.1), from which nftables let only coturn's
/// port through: Janus's media is reachable only by the relay, while the aiortc peers on
/// agentd-lab0 reach Janus directly. `agentd record` and `agentd play` work through it with
/// `--ice-policy relay` (the selected pair is relayed, the manifest and the closing line say
/// so), a wrong credential ends either with exit 4 and one line that shows no secret, and
/// without the relay policy the direct pairs are tried, dropped, and the relay carries the media.
///
/// The credential goes in by AGENTD_ICE_CREDENTIAL, as the help advises.
@Suite("TURN", .enabled(if: LabEnvironment.shouldRunTURN), .serialized)
struct TURNTests {
    /// agentd's ICE options for the lab's TURN server.
    static func ice(_ turn: LabEnvironment.TURN, url: String, policy: String = "relay") -> [String] {
        ["--ice-allow", turn.clientInterface, "--ice-server", url, "--ice-username", turn.username, "--ice-policy", policy]
    }

    /// An aiortc publisher (440 Hz and the moving square), READY in `room`, reaching Janus directly.
    static func publisher(_ lab: LabEnvironment, room: String) async throws -> ChildProcess {
        let process = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", "alice", "--create", "--duration", "120"],
            name: "alice")
        _ = try await process.waitForLine(prefix: "READY", within: .seconds(90))
        return process
    }

    /// Runs agentd to its end (at most `timeout`) with the TURN credential in its environment.
    static func agentd(_ arguments: [String], credential: String, timeout: Duration) async throws -> ChildProcess {
        let process = try ChildProcess(
            AgentdBinary.path, arguments, name: "agentd \(arguments[0])", environment: ["AGENTD_ICE_CREDENTIAL": credential])
        try await pollUntil(timeout: timeout, "agentd \(arguments[0]) to exit") { !process.isRunning }
        try? await pollUntil(timeout: .seconds(2), "its stderr") { process.stderr.contains("agentd:") }
        return process
    }

    static func manifest(_ out: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The lab's count of UDP and TCP packets dropped between the TURN client address and Janus.
    static func directDropped() async throws -> Int {
        let run = try await RecordingChecks.lab("turn", "stats")
        let line = run.output.split(separator: "\n").first { $0.hasPrefix("direct_dropped=") } ?? ""
        return try #require(Int(line.dropFirst("direct_dropped=".count)), "scripts/lab turn stats: \(run.output)")
    }

    @Test("agentd record --ice-policy relay records an aiortc publisher through coturn: the files decode, the manifest says relay")
    func recordThroughRelay() async throws {
        try await SharedResourceLock.lab.withExclusive { try await recordRelayed(policy: "relay") }
    }

    @Test("without the relay policy the direct pairs are tried and dropped, and the relay carries the recording")
    func recordFallsBackToRelay() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let before = try await Self.directDropped()
            try await recordRelayed(policy: "all")
            let dropped = try await Self.directDropped() - before
            print("TURN: policy all: \(dropped) direct packets dropped")
            #expect(dropped > 0, "no direct packet was tried: the rule was not tested")
        }
    }

    private func recordRelayed(policy: String) async throws {
        let lab = try LabEnvironment.required()
        let turn = try LabEnvironment.turnServer()
        let scratch = try ScratchDirectory("turn-record")
        let room = LabEnvironment.freshRoom("turnrec")
        let out = scratch.path("recording")
        let alice = try await Self.publisher(lab, room: room)
        defer { alice.terminate() }
        let recording = try await Self.agentd(
            ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--duration", "6", "--json"]
                + Self.ice(turn, url: turn.url, policy: policy),
            credential: turn.credential, timeout: .seconds(40))
        #expect(recording.exitStatus == 0, "\(recording.stderr)")
        #expect(!recording.stderr.contains(turn.credential) && !recording.stdoutLines.joined().contains(turn.credential))

        let manifestText = try String(contentsOfFile: out + "/manifest.json", encoding: .utf8)
        #expect(!manifestText.contains(turn.credential), "the manifest holds the TURN credential")
        let manifest = try Self.manifest(out)
        let connection = try #require(manifest["connection"] as? [String: Any], "\(manifest)")
        let pair = try #require(connection["selected_pair"] as? [String: Any], "no selected pair: \(connection)")
        print("TURN: record, policy \(policy): selected pair \(pair.sorted { $0.key < $1.key })")
        #expect(connection["ice_policy"] as? String == policy && connection["ice_servers"] as? [String] == [turn.url], "\(connection)")
        #expect(pair["local_type"] as? String == "relay" && pair["relayed"] as? Bool == true, "\(pair)")
        #expect(pair["remote_type"] as? String == "host", "\(pair)")

        let participants = try #require(manifest["participants"] as? [[String: Any]])
        let alicesEntry = try #require(participants.first { $0["name"] as? String == "alice" }, "\(participants)")
        let stats = try #require(alicesEntry["stats"] as? [String: [String: Any]])
        #expect((stats["audio"]?["packets"] as? Int ?? 0) > 200 && (stats["video"]?["packets"] as? Int ?? 0) > 100, "\(stats)")
        let webm = out + "/alice.webm"
        #expect(Set(try await RecordingChecks.streamCodecs(webm)) == ["opus", "vp8"])
        let errors = try await RecordingChecks.decodeErrors(webm)
        #expect(errors.isEmpty, "\(errors.prefix(600))")
        let (samples, rate) = try RecordingChecks.samples(out + "/alice.wav")
        #expect(rate == 48_000)
        let middle = samples.dropFirst(2 * 48_000).prefix(3 * 48_000)
        #expect(goertzelPower(middle, frequency: 440) > 100 * goertzelPower(middle, frequency: 660), "no 440 Hz tone in alice.wav")
    }

    @Test("agentd play --ice-policy relay over TURN/TCP: an aiortc subscriber decodes the tone and the video; the closing line names the relay")
    func playThroughRelay() async throws {
        try await SharedResourceLock.lab.withExclusive { try await playRelayed() }
    }

    private func playRelayed() async throws {
        let lab = try LabEnvironment.required()
        let turn = try LabEnvironment.turnServer()
        let scratch = try ScratchDirectory("turn-play")
        let room = LabEnvironment.freshRoom("turnplay")
        let wav = try await GeneratedSamples.toneWAV(in: scratch)
        let ivf = try await GeneratedSamples.encoded("pattern-vp8.ivf", in: scratch)
        let player = try ChildProcess(
            AgentdBinary.path,
            ["play", "--server", lab.janusWS, "--room", room, "--display", "player", "--audio", wav, "--video", ivf, "--create", "--loop",
             "--duration", "30"] + Self.ice(turn, url: turn.urlTCP),
            name: "agentd play", environment: ["AGENTD_ICE_CREDENTIAL": turn.credential])
        defer { player.terminate() }
        let out = scratch.path("subscriber")
        try await AiortcSubscriber.record(lab, room: room, display: "player", out: out)
        #expect(player.isRunning, "agentd play ended early: \(player.stderr)")
        await player.terminate()
        #expect(player.exitStatus == 0, "\(player.stderr)")
        let closing = player.stderr.split(separator: "\n").last.map(String.init) ?? ""
        print("TURN: play: \(closing)")
        #expect(closing.contains("ICE pair local relay ") && closing.contains("(through a TURN relay)"), "\(closing)")
        #expect(!player.stderr.contains(turn.credential))

        let summaryData = try Data(contentsOf: URL(fileURLWithPath: out + "/summary.json"))
        let summary = try #require(try JSONSerialization.jsonObject(with: summaryData) as? [String: Any])
        print("TURN: aiortc summary \(String(decoding: summaryData, as: UTF8.self).replacingOccurrences(of: "\n", with: ""))")
        // As PlaySubscriberTests: two seconds' worth proves video flows (aiortc re-encodes every frame).
        #expect((summary["video_frames"] as? Int ?? 0) >= 60, "\(summary)")
        let (samples, _) = try RecordingChecks.samples(out + "/audio.wav")
        let middle = samples.dropFirst(48_000).prefix(4 * 48_000)
        #expect(goertzelPower(middle, frequency: 440) > 1000 * goertzelPower(middle, frequency: 660), "no 440 Hz tone at the subscriber")
        let errors = try await RecordingChecks.decodeErrors(out + "/video.webm")
        #expect(errors.isEmpty, "\(errors.prefix(600))")
    }

    @Test("a wrong TURN credential: record and play exit 4 at once with one line naming the TURN options, no secret in it")
    func wrongCredential() async throws {
        try await SharedResourceLock.lab.withExclusive { try await refusedCredential() }
    }

    private func refusedCredential() async throws {
        let lab = try LabEnvironment.required()
        let turn = try LabEnvironment.turnServer()
        let scratch = try ScratchDirectory("turn-wrong")
        let room = LabEnvironment.freshRoom("turnwrong")
        let wrong = "wrong-\(turn.credential)"
        let wav = try await GeneratedSamples.toneWAV(in: scratch, seconds: 2)
        let commands: [(String, [String])] = [
            ("udp", ["record", "--server", lab.janusWS, "--room", room, "--create", "--out", scratch.path("rec"), "--duration", "10"]
                + Self.ice(turn, url: turn.url)),
            ("tcp", ["play", "--server", lab.janusWS, "--room", room, "--create", "--display", "p", "--audio", wav]
                + Self.ice(turn, url: turn.urlTCP)),
        ]
        for (transport, arguments) in commands {
            let started = ContinuousClock.now
            let process = try await Self.agentd(arguments, credential: wrong, timeout: .seconds(30))
            let elapsed = ContinuousClock.now - started
            print("TURN: wrong credential over \(transport): exit \(process.exitStatus ?? -1) after \(elapsed): \(process.stderr)")
            #expect(process.exitStatus == 4, "\(arguments[0]): \(process.stderr)")
            let lines = process.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(process.stderr)")
            #expect(process.stderr.hasPrefix("agentd: error: no TURN relay (--ice-policy relay): no relayed candidate from turn:"), "\(process.stderr)")
            #expect(process.stderr.contains("check --ice-username and --ice-credential"), "\(process.stderr)")
            #expect(!process.stderr.contains(wrong) && !process.stderr.contains(turn.credential), "\(process.stderr)")
            #expect(elapsed < .seconds(10), "a refused credential took \(elapsed)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("rec")), "the refused recording left its directory")
    }
}
