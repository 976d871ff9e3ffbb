import Testing

@testable import Agent
@testable import AgentTransport

@Suite struct ICEAgentTests {
    /// One side of the test: an agent on its own loop with inboxes for its events and datagrams.
    struct Side {
        let loop: EventLoop
        let agent: ICEAgent
        let events = TestInbox<ICEAgent.Event>()
        let datagrams = TestInbox<[UInt8]>()

        init(name: String, role: ICEAgent.Role) async throws {
            let loop = EventLoop(name: name)
            let events = events
            let datagrams = datagrams
            self.loop = loop
            self.agent = try await loop.submit {
                try ICEAgent(
                    loop: loop, role: role, localAddresses: ["127.0.0.1"],
                    onEvent: { events.post($0) },
                    onDatagram: { datagrams.post(Array($0)) })
            }
        }

        func gather() async throws -> (ICEAgent.Credentials, [String]) {
            let agent = agent
            try await loop.submit { try agent.gather() }
            _ = try await events.first("gathering done") { $0 == .gatheringDone }
            return try await loop.submit { (try agent.localCredentials(), try agent.localCandidateAttributes()) }
        }

        func accept(_ credentials: ICEAgent.Credentials, _ candidates: [String]) async throws {
            let agent = agent
            try await loop.submit {
                try agent.setRemoteCredentials(credentials)
                for candidate in candidates { try agent.addRemoteCandidate(candidate) }
            }
        }

        func send(_ bytes: [UInt8]) async throws {
            let agent = agent
            try await loop.submit { try agent.send(bytes) }
        }

        func close() async throws {
            let agent = agent
            try await loop.submit {
                agent.close()
                agent.close()  // idempotent
            }
            loop.shutdown()
        }
    }

    @Test func twoAgentsConnectOverLoopbackAndExchangeDatagrams() async throws {
        let controlling = try await Side(name: "ice.controlling", role: .controlling)
        let controlled = try await Side(name: "ice.controlled", role: .controlled)

        let (credentialsA, candidatesA) = try await controlling.gather()
        let (credentialsB, candidatesB) = try await controlled.gather()
        #expect(!candidatesA.isEmpty && !candidatesB.isEmpty)
        // The allow list was 127.0.0.1 only: nothing else may be gathered.
        for attribute in candidatesA + candidatesB {
            let candidate = try ICECandidate(sdpAttribute: attribute)
            #expect(candidate.address == "127.0.0.1")
            #expect(candidate.kind == .host)
            #expect(candidate.isUDP)
        }
        #expect(credentialsA != credentialsB)

        try await controlled.accept(credentialsA, candidatesA)
        try await controlling.accept(credentialsB, candidatesB)

        _ = try await controlling.events.first("controlling connected") { $0 == .stateChanged(.connected) }
        _ = try await controlled.events.first("controlled connected") { $0 == .stateChanged(.connected) }

        let ping = Array("ping from controlling".utf8) + [0x00, 0xFF, 0x80]
        let pong = Array("pong from controlled".utf8) + (0..<200).map { UInt8($0) }
        try await controlling.send(ping)
        let receivedPing = try await controlled.datagrams.first("ping") { $0 == ping }
        try await controlled.send(pong)
        let receivedPong = try await controlling.datagrams.first("pong") { $0 == pong }
        #expect(receivedPing == ping)
        #expect(receivedPong == pong)
        // Nothing but what we sent may arrive as data (STUN stays inside libnice).
        #expect(controlled.datagrams.items == [ping])
        #expect(controlling.datagrams.items == [pong])

        let pair = try await controlling.events.first("selected pair") {
            if case .selectedPair = $0 { return true } else { return false }
        }
        if case .selectedPair(let selected) = pair {
            #expect(selected.local.address == "127.0.0.1" && selected.local.type == .host && selected.local.transport == "udp")
            #expect(selected.remote.address == "127.0.0.1" && !selected.isRelayed, "\(selected)")
        }

        try await controlling.close()
        try await controlled.close()
    }

    @Test func restartReconnectsWithNewCredentials() async throws {
        let controlling = try await Side(name: "ice.restart.controlling", role: .controlling)
        let controlled = try await Side(name: "ice.restart.controlled", role: .controlled)
        let (credentialsA, candidatesA) = try await controlling.gather()
        let (credentialsB, candidatesB) = try await controlled.gather()
        try await controlled.accept(credentialsA, candidatesA)
        try await controlling.accept(credentialsB, candidatesB)
        _ = try await controlling.events.first("connected") { $0 == .stateChanged(.connected) }
        _ = try await controlled.events.first("connected") { $0 == .stateChanged(.connected) }

        // Both sides restart (RFC 5245 §9.1.1.1 and §9.2.1.1), then trade the new credentials.
        let agentA = controlling.agent
        let agentB = controlled.agent
        let (newA, newCandidatesA) = try await controlling.loop.submit {
            (try agentA.restart(), try agentA.localCandidateAttributes())
        }
        let (newB, newCandidatesB) = try await controlled.loop.submit {
            (try agentB.restart(), try agentB.localCandidateAttributes())
        }
        #expect(newA != credentialsA && newB != credentialsB)
        try await controlled.accept(newA, newCandidatesA)
        try await controlling.accept(newB, newCandidatesB)

        // New connectivity checks run with the new credentials and conclude again on both sides.
        _ = try await controlling.events.nth(2, "connected after restart") { $0 == .stateChanged(.connected) }
        _ = try await controlled.events.nth(2, "connected after restart") { $0 == .stateChanged(.connected) }
        let payload = Array("after restart".utf8)
        try await controlling.send(payload)
        #expect(try await controlled.datagrams.first("datagram after restart") { $0 == payload } == payload)
        try await controlling.close()
        try await controlled.close()
    }

    @Test func restartGivesNewCredentials() async throws {
        let side = try await Side(name: "ice.restart", role: .controlling)
        let (before, _) = try await side.gather()
        let agent = side.agent
        let after = try await side.loop.submit { try agent.restart() }
        #expect(after.ufrag != before.ufrag)
        #expect(after.password != before.password)
        let sendAfterClose = try await side.loop.submit { () -> ICEAgentError? in
            agent.close()
            do { try agent.send([1, 2, 3]); return nil } catch { return error as? ICEAgentError }
        }
        #expect(sendAfterClose == .closed)
        try await side.close()
    }

    @Test func allowListRestrictsGathering() async throws {
        let loop = EventLoop(name: "ice.allow")
        defer { loop.shutdown() }
        let outcome = try await loop.submit { () -> ([String], ICEAgentError?) in
            let agent = try ICEAgent(loop: loop, role: .controlled, allowList: ICEAllowList(parsing: "lo"))
            defer { agent.close() }
            var refusal: ICEAgentError?
            do {
                _ = try ICEAgent(loop: loop, role: .controlled, allowList: ICEAllowList(parsing: "nosuchif0"))
            } catch let error as ICEAgentError {
                refusal = error
            }
            return (agent.localAddresses, refusal)
        }
        #expect(outcome.0 == ["127.0.0.1"])
        guard case .allowList(.nothingMatched) = outcome.1 else {
            Issue.record("expected an allow-list error, got \(String(describing: outcome.1))")
            return
        }
    }

    @Test func rejectsBadRemoteInput() async throws {
        let side = try await Side(name: "ice.bad", role: .controlled)
        let agent = side.agent
        let results = try await side.loop.submit { () -> [ICEAgentError?] in
            func attempt(_ body: () throws -> Void) -> ICEAgentError? {
                do { try body(); return nil } catch { return error as? ICEAgentError }
            }
            return [
                attempt { try agent.addRemoteCandidate("candidate:1 1 UDP 1 127.0.0.1 9 typ") },
                attempt { try agent.addRemoteCandidate("candidate:1 2 UDP 1 127.0.0.1 9 typ host") },
                attempt { try agent.addRemoteCandidate("candidate:1 1 TCP 1 127.0.0.1 9 typ host tcptype active") },
                attempt { try agent.setRemoteCredentials(.init(ufrag: "ab", password: "0123456789012345678901")) },
                attempt { try agent.setRemoteCredentials(.init(ufrag: "abcd", password: "short")) },
            ]
        }
        #expect(results[0] == .invalidCandidate(.missingField("type")))
        #expect(results[1] == .unsupportedComponent(2))
        #expect(results[2] == .unsupportedTransport("TCP"))
        #expect(results[3] == .invalidCredentials("ufrag must be 4-256 ice-chars"))
        #expect(results[4] == .invalidCredentials("password must be 22-256 ice-chars"))
        try await side.close()
    }
}
