import Foundation
import TestSupport
import Testing

/// Issue 4's loss acceptance: with the lab dropping 5 % of UDP packets each way, what
/// `agentd play` sends is recorded without decode errors, because it answers the receiver's
/// NACKs from its send history; its NACK count is above zero.
@Suite("PlayLoss", .enabled(if: LabEnvironment.shouldRunDisruptive), .serialized)
struct PlayLossTests {
    @Test("5 % loss: the recording of a played file decodes cleanly and the player answered NACKs")
    func playsThroughLoss() async throws {
        try await SharedResourceLock.lab.withExclusive { try await playThroughLoss() }
    }

    private func playThroughLoss() async throws {
        let lab = try LabEnvironment.required()
        let scratch = try ScratchDirectory("play-loss")
        let audio = scratch.path("tone.opus")
        let video = scratch.path("pattern.ivf")
        try await PlayMedia.toneOpus(audio, seconds: 14)
        try await PlayMedia.patternIVF(video, seconds: 14, size: "640x480")
        let room = LabEnvironment.freshRoom("playloss")
        let out = scratch.path("recording")

        let player = try ChildProcess(
            AgentdBinary.path,
            ["play", "--server", lab.janusWS, "--room", room, "--display", "lossy", "--audio", audio, "--video", video,
             "--create", "--ice-allow", "agentd-lab0"], name: "agentd play")
        defer { player.terminate() }
        let recording = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--create", "--out", out, "--duration", "8", "--ice-allow", "agentd-lab0"],
            name: "agentd record")
        defer { recording.terminate() }
        // Loss starts once the player's media flows (the recorder has its file), as in the
        // record issue's loss test: it is retransmission under loss that is measured here.
        try await pollUntil(timeout: .seconds(20), "the recorder to have the player's file") {
            FileManager.default.fileExists(atPath: out + "/lossy.webm")
        }
        let applied = try await RecordingChecks.lab("up", "--loss", "5")
        #expect(applied.status == 0, "\(applied.output)")
        try await withCleanup {

            try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")
            try await pollUntil(timeout: .seconds(30), "agentd play to finish the files") { !player.isRunning }
            #expect(player.exitStatus == 0, "\(player.stderr)")

            let errors = try await RecordingChecks.decodeErrors(out + "/lossy.webm")
            #expect(errors.isEmpty, "decode errors under loss: \(errors.prefix(600))")
            // "... sent N packets, M NACKs answered with K retransmissions, ..."
            let line = player.stderr
            let nacks = Self.number(before: " NACKs answered", in: line)
            let resent = Self.number(before: " retransmissions", in: line)
            print("agentd play under 5 % loss: \(line.trimmingCharacters(in: .whitespacesAndNewlines))")
            #expect((nacks ?? 0) > 0 && (resent ?? 0) > 0, "no NACK answered under loss: \(line)")
        } cleanup: {
            _ = try? await RecordingChecks.lab("up")
        }
    }

    static func number(before marker: String, in text: String) -> Int? {
        guard let range = text.range(of: marker) else { return nil }
        let digits = text[..<range.lowerBound].reversed().prefix { $0.isNumber }
        return Int(String(digits.reversed()))
    }
}
