import Agent
import Foundation
import TestSupport
import Testing

/// Core tokens through the engine: runs only when the lab was started with `--token-secret`
/// (scripts/test's second phase, with RecordTokenTests).
@Suite("EngineToken", .enabled(if: LabTokenSecret.value != nil), .serialized)
struct EngineTokenTests {
    static func token(_ secret: String, expiresIn seconds: Double) -> (value: String, expiry: Date) {
        let minted = JanusToken.mint(secret: secret, plugins: ["janus.plugin.videoroom"], expiry: Date().addingTimeInterval(seconds))
        return (minted.value, minted.expiry ?? Date())
    }

    static func join(_ lab: LabEnvironment, room: String, display: String, lead: Duration) -> RoomJoin {
        RoomJoin(
            endpoint: .janus(server: lab.janusWS, room: room), display: display, create: true,
            iceAddresses: [lab.hostIP ?? "10.77.0.1"], timeouts: RoomTimeouts(tokenExpiryLead: lead))
    }

    static let options = ChannelOptions(statsInterval: .milliseconds(500))

    @Test("tokenWillExpire fires lead before a 40 s token's expiry")
    func warningBeforeExpiry() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let secret = try #require(LabTokenSecret.value)
            let engine = AgentEngine(loopCount: 1)
            do {
                let (token, expiry) = Self.token(secret, expiresIn: 40)
                // A 36 s lead: the warning is due about 4 s after the join.
                let channel = try await engine.join(
                    Self.join(lab, room: LabEnvironment.freshRoom("token-warn"), display: "warned", lead: .seconds(36)),
                    credentials: RoomCredentials(token: token), options: Self.options)
                let joined = ContinuousClock.now
                let log = ChannelEventLog(channel.events)
                try await pollUntil(timeout: .seconds(10), "tokenWillExpire") {
                    log.contains { if case .tokenWillExpire = $0 { true } else { false } }
                }
                let waited = ContinuousClock.now - joined
                let warning = log.all.compactMap { if case .tokenWillExpire(let at) = $0.event { at } else { nil } }
                #expect(warning == [expiry])
                #expect(waited > .seconds(2) && waited < .seconds(6), "warned after \(waited); expiry in 40 s, lead 36 s")
            } catch {
                await engine.shutdown()
                throw error
            }
            await engine.shutdown()
        }
    }

    @Test("renewToken keeps the session working past the first token's expiry; without it, requests are refused")
    func renewalOutlivesTheFirstToken() async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared { try await renewal() }
        }
    }

    private func renewal() async throws {
        let lab = try LabEnvironment.required()
        let secret = try #require(LabTokenSecret.value)
        let room = LabEnvironment.freshRoom("token-renew")
        // Two engines: one renews, the other (the control) keeps its first token.
        let renewing = AgentEngine(loopCount: 1, loopName: "test.renewing")
        let control = AgentEngine(loopCount: 1, loopName: "test.control")
        do {
            let (first, firstExpiry) = Self.token(secret, expiresIn: 8)
            let channel = try await renewing.join(Self.join(lab, room: room, display: "renewer", lead: .seconds(5)), credentials: RoomCredentials(token: first), options: Self.options)
            let log = ChannelEventLog(channel.events)
            let stale = try await control.join(Self.join(lab, room: room, display: "stale", lead: .seconds(5)), credentials: RoomCredentials(token: first), options: Self.options)
            let staleLog = ChannelEventLog(stale.events)
            try await pollUntil(timeout: .seconds(10), "tokenWillExpire") { log.contains { if case .tokenWillExpire = $0 { true } else { false } } }
            await channel.renewToken(Self.token(secret, expiresIn: 600).value)

            try await pollUntil(timeout: .seconds(15), "the first token to expire") { Date() > firstExpiry.addingTimeInterval(1) }
            // A publisher after the expiry: subscribing to it takes new requests.
            let (publisher, publisherID) = try await LabPublisher.start(lab, room: room, display: "late", extra: ["--token-secret", secret])
            defer { publisher.terminate() }
            try await pollUntil(timeout: .seconds(20), "the renewed channel receiving the late publisher") {
                (log.reports.last?.report.track(of: publisherID, kind: .audio)?.bitrate ?? 0) > 0
            }
            #expect(log.contains(where: log.isSubscribed(publisherID, .video)))
            #expect(channel.connectionState == .connected)
            // The control saw the publisher arrive (events need no token) but could not subscribe.
            try await pollUntil(timeout: .seconds(10), "the control seeing the publisher") { staleLog.contains(where: staleLog.isJoined(publisherID)) }
            #expect(!staleLog.contains(where: staleLog.isSubscribed(publisherID, .audio)), "the expired token must not subscribe")
        } catch {
            await renewing.shutdown()
            await control.shutdown()
            throw error
        }
        await renewing.shutdown()
        await control.shutdown()
    }

    @Test("an expired token is AgentError.tokenExpired at once, a forged one tokenRefused; neither is retried")
    func refusedTokens() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let secret = try #require(LabTokenSecret.value)
            let engine = AgentEngine(loopCount: 1)
            let room = LabEnvironment.freshRoom("token-refused")
            let (expired, expiry) = Self.token(secret, expiresIn: -5)
            let started = ContinuousClock.now
            await #expect(throws: AgentError.tokenExpired(expiredAt: expiry)) {
                _ = try await engine.join(Self.join(lab, room: room, display: "late", lead: .seconds(30)), credentials: RoomCredentials(token: expired), options: Self.options)
            }
            let forged = "1999999999,janus,janus.plugin.videoroom:bm90IGEgc2lnbmF0dXJl"
            do {
                _ = try await engine.join(Self.join(lab, room: room, display: "forger", lead: .seconds(30)), credentials: RoomCredentials(token: forged), options: Self.options)
                Issue.record("a forged token joined")
            } catch let error as AgentError {
                #expect(error.code == "token_refused", "\(error)")
                #expect(error.isRefusal)
            }
            #expect(ContinuousClock.now - started < .seconds(5), "one attempt each, no retry storm")
            #expect(await engine.channels.isEmpty)
            await engine.shutdown()
        }
    }
}
