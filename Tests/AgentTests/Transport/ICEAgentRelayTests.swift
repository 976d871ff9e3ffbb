import Foundation
import TestSupport
import Testing

@testable import Agent
@testable import AgentTransport

/// TURN and the relay policy in the ICE agent, on loopback: what is refused before anything is
/// sent, what a relay-only agent gathers when no TURN server helps, and, with Debian's coturn
/// started on 127.0.0.1 for the test, a relay-only agent connecting through it.
@Suite struct ICEAgentRelayTests {
    static let credentials = ICEServerCredentials(username: "u", credential: "p")

    /// A port on 127.0.0.1 that nothing listens on (TCP): connecting to it is refused at once.
    static func closedPort() throws -> UInt16 {
        let listener = try SilentTCPListener()
        listener.close()
        return listener.port
    }

    static func relayOnly(port: UInt16, transport: ICEServer.Transport) -> ICEConfiguration {
        ICEConfiguration(
            addresses: ["127.0.0.1"], servers: [ICEServer(scheme: .turn, host: "127.0.0.1", port: port, transport: transport)],
            policy: .relay)
    }

    @Test("servers that cannot work together are refused when the agent is made")
    func configurationRefused() async throws {
        let loop = EventLoop(name: "ice.relay.config")
        defer { loop.shutdown() }
        let noTURN = ICEConfiguration(addresses: ["127.0.0.1"], servers: [ICEServer(scheme: .stun, host: "127.0.0.1")], policy: .relay)
        let noCredentials = Self.relayOnly(port: 3478, transport: .udp)
        await #expect(throws: ICEAgentError.configuration(.relayWithoutTURNServer)) {
            _ = try await loop.submit { try ICEAgent(loop: loop, role: .controlling, ice: noTURN) }
        }
        await #expect(throws: ICEAgentError.configuration(.missingCredentials)) {
            _ = try await loop.submit { try ICEAgent(loop: loop, role: .controlling, ice: noCredentials) }
        }
        let error = ICEAgentError.configuration(.unusableCredentials("the credential is empty"))
        #expect("\(AgentError(error))" == "not supported: ICE servers: unusable TURN credentials: the credential is empty")
    }

    @Test("relay-only with a TURN server that refuses the connection: no candidate at all, and a clear error")
    func refusedServer() async throws {
        let loop = EventLoop(name: "ice.relay.refused")
        defer { loop.shutdown() }
        let ice = Self.relayOnly(port: try Self.closedPort(), transport: .tcp)
        do {
            // A timeout far beyond a refusal: `timedOut` false says gathering ended because the
            // server refused, not because the check gave up (a wall-clock bound flaked on a
            // loaded CI machine, where the pool ran this task 16 s late).
            _ = try await ICEAgent.relayCandidates(loop: loop, ice: ice, serverCredentials: Self.credentials, timeout: .seconds(120))
            Issue.record("a relayed candidate from a closed port")
        } catch {
            guard case .noRelayCandidate(let servers, let timedOut) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(servers == [ice.servers[0].description] && !timedOut)
            #expect(AgentError(error) == .relayUnavailable("\(error)"))
            #expect(!"\(error)".contains(Self.credentials.credential + "@"), "\(error)")
        }

        // An agent of a PeerConnection under the same policy offers no host candidate either.
        let events = TestInbox<ICEAgent.Event>()
        let agent = try await loop.submit {
            try ICEAgent(loop: loop, role: .controlled, ice: ice, serverCredentials: Self.credentials, onEvent: { events.post($0) })
        }
        try await loop.submit { try agent.gather() }
        _ = try await events.first("gathering done") { $0 == .gatheringDone }
        let candidates = try await loop.submit { try agent.localCandidates() }
        #expect(candidates.isEmpty, "\(candidates)")
        await #expect(throws: ICEAgentError.noRelayCandidate(servers: [ice.servers[0].description], timedOut: false)) {
            try await loop.submit { try agent.checkCandidatesForPolicy() }
        }
        try await loop.submit { agent.close() }
    }

    static var turnserverInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/turnserver") }

    @Test("through coturn on 127.0.0.1: a relay-only agent connects by its relayed candidate, over UDP and TCP; a wrong password gets none",
          .enabled(if: turnserverInstalled))
    func throughCoturn() async throws {
        let scratch = try ScratchDirectory("coturn")
        let port = try Self.closedPort()
        let coturn = try ChildProcess(
            "/usr/bin/turnserver",
            ["-n", "--no-cli", "--lt-cred-mech", "--user=u:p", "--realm=test", "--listening-ip=127.0.0.1", "--relay-ip=127.0.0.1",
             "--listening-port=\(port)", "--allow-loopback-peers", "--min-port=49152", "--max-port=65535", "--no-tls", "--no-dtls",
             "--no-rfc5780", "--userdb=\(scratch.path("turndb"))", "--log-file=\(scratch.path("turn.log"))", "--simple-log",
             "--no-stdout-log"],
            name: "turnserver")
        let loop = EventLoop(name: "ice.relay.coturn")
        defer { loop.shutdown() }
        do {
            try await relayThrough(coturn: port, loop: loop)
        } catch {
            await Self.stop(coturn)
            throw error
        }
        await Self.stop(coturn)
    }

    /// A child started from a test inherits the cooperative pool thread's blocked signals, so
    /// coturn never sees a SIGTERM; it keeps nothing worth a clean exit.
    static func stop(_ coturn: ChildProcess) async {
        coturn.send(signal: SIGKILL)
        await coturn.terminate()
    }

    private func relayThrough(coturn port: UInt16, loop: EventLoop) async throws {
        // Up once it allocates (a few ms; the process needs a moment to listen).
        try await pollUntil(timeout: .seconds(10), "coturn to allocate") {
            (try? await ICEAgent.relayCandidates(
                loop: loop, ice: Self.relayOnly(port: port, transport: .udp), serverCredentials: Self.credentials, timeout: .seconds(1))) != nil
        }
        for transport in [ICEServer.Transport.udp, .tcp] {
            let relayed = try await ICEAgent.relayCandidates(
                loop: loop, ice: Self.relayOnly(port: port, transport: transport), serverCredentials: Self.credentials, timeout: .seconds(5))
            #expect(relayed.count == 1 && relayed[0].kind == .relay && relayed[0].address == "127.0.0.1", "\(relayed)")
            try await connect(loop: loop, relayOnly: Self.relayOnly(port: port, transport: transport))
        }
        // coturn answers STUN too: libnice takes the server and gathers (its server-reflexive
        // address is the host one here, so only the host candidate stays).
        let stun = ICEConfiguration(addresses: ["127.0.0.1"], servers: [ICEServer(scheme: .stun, host: "127.0.0.1", port: port)])
        let events = TestInbox<ICEAgent.Event>()
        let agent = try await loop.submit { try ICEAgent(loop: loop, role: .controlling, ice: stun, onEvent: { events.post($0) }) }
        try await loop.submit { try agent.gather() }
        _ = try await events.first("gathering done with a STUN server") { $0 == .gatheringDone }
        #expect(try await loop.submit { try agent.localCandidates().map(\.kind) } == [.host])
        try await loop.submit { agent.close() }

        let wrong = ICEServerCredentials(username: "u", credential: "wrong")
        await #expect(throws: ICEAgentError.noRelayCandidate(servers: ["turn:127.0.0.1:\(port)?transport=udp"], timedOut: false)) {
            _ = try await ICEAgent.relayCandidates(
                loop: loop, ice: Self.relayOnly(port: port, transport: .udp), serverCredentials: wrong, timeout: .seconds(5))
        }
    }

    /// A host-only controlling agent and a relay-only controlled one (as `agentd record
    /// --ice-policy relay` answers Janus): they connect, the relay side's pair is relayed, and a
    /// datagram crosses.
    private func connect(loop: EventLoop, relayOnly: ICEConfiguration) async throws {
        let hostEvents = TestInbox<ICEAgent.Event>()
        let relayEvents = TestInbox<ICEAgent.Event>()
        let received = TestInbox<[UInt8]>()
        let (host, relay) = try await loop.submit {
            (try ICEAgent(loop: loop, role: .controlling, localAddresses: ["127.0.0.1"], onEvent: { hostEvents.post($0) }),
             try ICEAgent(loop: loop, role: .controlled, ice: relayOnly, serverCredentials: Self.credentials,
                          onEvent: { relayEvents.post($0) }, onDatagram: { received.post(Array($0)) }))
        }
        try await loop.submit {
            try host.gather()
            try relay.gather()
        }
        _ = try await hostEvents.first("host gathered") { $0 == .gatheringDone }
        _ = try await relayEvents.first("relay gathered") { $0 == .gatheringDone }
        let relayCandidates = try await loop.submit { try relay.localCandidates() }
        #expect(relayCandidates.map(\.kind) == [.relay], "only the relayed candidate is offered: \(relayCandidates)")
        try await loop.submit {
            try relay.setRemoteCredentials(try host.localCredentials())
            for candidate in try host.localCandidates() { try relay.addRemoteCandidate(candidate) }
            try host.setRemoteCredentials(try relay.localCredentials())
            for candidate in relayCandidates { try host.addRemoteCandidate(candidate) }
        }
        _ = try await relayEvents.first("relay side connected") { $0 == .stateChanged(.connected) }
        let event = try await relayEvents.first("relay side's pair") { if case .selectedPair = $0 { true } else { false } }
        if case .selectedPair(let pair) = event {
            #expect(pair.local.type == .relay && pair.remote.type == .host && pair.isRelayed, "\(pair)")
        }
        _ = try await hostEvents.first("host side connected") { $0 == .stateChanged(.connected) }
        let payload = Array("through the relay".utf8)
        try await loop.submit { try host.send(payload) }
        #expect(try await received.first("datagram") { $0 == payload } == payload)
        try await loop.submit {
            host.close()
            relay.close()
        }
    }
}
