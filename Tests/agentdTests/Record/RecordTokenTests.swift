import Foundation
import TestSupport
import Testing

/// Janus core tokens (token_auth): runs only when the lab was started with `--token-secret`
/// (scripts/test does that in a second phase, after the main run).
@Suite("RecordToken", .enabled(if: LabTokenSecret.value != nil), .serialized)
struct RecordTokenTests {
    func agentd(_ arguments: [String]) async throws -> ChildProcess {
        let process = try ChildProcess(AgentdBinary.path, arguments, name: "agentd \(arguments.first ?? "")")
        try await pollUntil(timeout: .seconds(40), "agentd \(arguments.first ?? "") to exit") { !process.isRunning }
        return process
    }

    @Test("a wrong or expired token is refused with exit 3 at once; a minted one records")
    func tokens() async throws {
        try await SharedResourceLock.lab.withExclusive { try await checkTokens() }
    }

    private func checkTokens() async throws {
        let lab = try LabEnvironment.required()
        let secret = try #require(LabTokenSecret.value)
        let room = LabEnvironment.freshRoom("token")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-token-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }

        let publisher = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", "tok", "--create",
             "--token-secret", secret, "--duration", "30"])
        defer { publisher.terminate() }
        _ = try await publisher.waitForLine(prefix: "READY", within: .seconds(90))

        let common = ["--server", lab.janusWS, "--room", room, "--out", out, "--ice-allow", "agentd-lab0"]
        let started = ContinuousClock.now
        let wrong = try await agentd(["record", "--token", "1999999999,janus,janus.plugin.videoroom:bm90IGEgc2lnbmF0dXJl"] + common)
        #expect(wrong.exitStatus == 3, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("refused the token"), "\(wrong.stderr)")
        #expect(ContinuousClock.now - started < .seconds(10), "no retry storm: one refusal ends it")

        let expired = try await agentd(["token", "--secret", secret, "--ttl", "1"])
        let expiredToken = try #require(expired.stdoutLines.first)
        try await pollUntil(timeout: .seconds(5), "the 1 s token to expire") {
            (Int(expiredToken.prefix { $0 != "," }) ?? 0) < Int(Date().timeIntervalSince1970)
        }
        let late = try await agentd(["record", "--token", expiredToken] + common)
        #expect(late.exitStatus == 3, "\(late.stderr)")

        let minted = try await agentd(["token", "--secret", secret, "--ttl", "600"])
        let token = try #require(minted.stdoutLines.first)
        let good = try await agentd(["record", "--token", token, "--duration", "3"] + common)
        #expect(good.exitStatus == 0, "\(good.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/tok.wav"))
    }
}

/// The lab's token_auth_secret when it runs with token auth, from its env file.
enum LabTokenSecret {
    static var value: String? {
        guard case .success(let lab) = LabEnvironment.current, let secret = lab.values["LAB_TOKEN_SECRET"], !secret.isEmpty
        else { return nil }
        return secret
    }
}
