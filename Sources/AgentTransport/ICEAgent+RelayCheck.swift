import AgentCore

extension ICEAgent {
    /// Gathers once with `ice` on `loop`, without a peer, and returns the relayed candidates
    /// the TURN servers allocated; the agent is closed again, which releases the allocations
    /// (libnice refreshes them with a lifetime of 0, RFC 8656 §7).
    ///
    /// What a join under the relay policy does first: an audience makes its connection only
    /// when the first publisher's offer comes, and a TURN server that refuses our credentials
    /// would otherwise show only then, as a drop retried for minutes. This says so at once.
    ///
    /// - Parameter timeout: how long gathering may take. libnice retransmits an unanswered
    ///   allocation for much longer (its STUN timer), so a server that is silent ends here.
    /// - Throws: ``ICEAgentError/noRelayCandidate(servers:timedOut:)`` when there is none; what
    ///   creating or gathering throws; ``ICEAgentError/closed`` when the loop is shut down.
    public static func relayCandidates(
        loop: EventLoop, ice: ICEConfiguration, serverCredentials: ICEServerCredentials?, timeout: Duration
    ) async throws(ICEAgentError) -> [ICECandidate] {
        let (events, gathered) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let agent: ICEAgent
        do {
            agent = try await loop.submit { () throws(ICEAgentError) -> ICEAgent in
                let agent = try ICEAgent(
                    loop: loop, role: .controlling, ice: ice, serverCredentials: serverCredentials,
                    onEvent: { event in if event == .gatheringDone { gathered.yield() } })
                try agent.gather()
                return agent
            }
        } catch let error as ICEAgentError {
            throw error
        } catch {
            throw .closed
        }
        let done = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in events { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        gathered.finish()
        let candidates = try? await loop.submit { () throws(ICEAgentError) -> [ICECandidate] in
            defer { agent.close() }
            return try agent.localCandidates()
        }
        let relayed = (candidates ?? []).filter { $0.kind == .relay }
        guard !relayed.isEmpty else {
            throw .noRelayCandidate(servers: ice.turnServers.map(\.description), timedOut: !done)
        }
        return relayed
    }
}
