import AgentCore
import CAgentShims
import CNice
import Foundation

/// libnice's signals, on the loop: gathering done, component state, the selected pair, and each
/// received datagram, turned into ``ICEAgent/Event``s and the datagram handler.
extension ICEAgent {
    func handleGatheringDone(streamID: guint) {
        loop.assertInLoop()
        guard streamID == self.streamID, agent != nil, !isGatheringDone else { return }
        isGatheringDone = true
        let held = remoteCandidatesBeforeGathering
        remoteCandidatesBeforeGathering.removeAll()
        for candidate in held {
            // Already validated when it was added; libnice may still refuse it, which is dropped
            // here just as a peer's unusable candidate would be.
            try? applyRemoteCandidate(candidate)
        }
        emit(.gatheringDone)
    }

    func handleComponentState(streamID: guint, componentID: guint, niceState: guint) {
        loop.assertInLoop()
        guard streamID == self.streamID, componentID == Self.componentID, agent != nil else { return }
        let newState: State
        switch NiceComponentState(niceState) {
        case NICE_COMPONENT_STATE_GATHERING: newState = .gathering
        case NICE_COMPONENT_STATE_CONNECTING: newState = .connecting
        case NICE_COMPONENT_STATE_CONNECTED, NICE_COMPONENT_STATE_READY: newState = .connected
        case NICE_COMPONENT_STATE_FAILED: newState = .failed
        case NICE_COMPONENT_STATE_DISCONNECTED: newState = .disconnected
        default: return
        }
        guard newState != state else { return }
        state = newState
        emit(.stateChanged(newState))
    }

    func handleSelectedPair(
        local: UnsafeMutablePointer<NiceCandidate>?, remote: UnsafeMutablePointer<NiceCandidate>?
    ) {
        loop.assertInLoop()
        guard let agent, let local, let remote,
            let localCandidate = try? ICECandidate(sdpAttribute: candidateText(agent: agent, local)),
            let remoteCandidate = try? ICECandidate(sdpAttribute: candidateText(agent: agent, remote))
        else { return }
        emit(.selectedPair(ICESelectedPair(local: localCandidate.pairEnd, remote: remoteCandidate.pairEnd)))
    }

    func handleDatagram(streamID: guint, bytes: UnsafeRawBufferPointer) {
        loop.assertInLoop()
        guard streamID == self.streamID, agent != nil else { return }
        datagramHandler?(bytes)
    }

    func candidateText(agent: OpaquePointer, _ candidate: UnsafeMutablePointer<NiceCandidate>) -> String {
        guard let sdp = nice_agent_generate_local_candidate_sdp(agent, candidate) else { return "" }
        defer { g_free(sdp) }
        var text = String(cString: sdp)
        if text.hasPrefix("a=") { text.removeFirst(2) }
        return text
    }

    func connectSignals(_ agent: OpaquePointer) {
        let instance = UnsafeMutableRawPointer(agent)
        let data = callbackTarget.toOpaque()
        let gatheringDone: @convention(c) (OpaquePointer?, guint, gpointer?) -> Void = { _, stream, data in
            ICECallbackTarget.agent(from: data)?.handleGatheringDone(streamID: stream)
        }
        let stateChanged: @convention(c) (OpaquePointer?, guint, guint, guint, gpointer?) -> Void = {
            _, stream, component, state, data in
            ICECallbackTarget.agent(from: data)?.handleComponentState(
                streamID: stream, componentID: component, niceState: state)
        }
        let selectedPair:
            @convention(c) (
                OpaquePointer?, guint, guint, UnsafeMutablePointer<NiceCandidate>?,
                UnsafeMutablePointer<NiceCandidate>?, gpointer?
            ) -> Void = { _, _, _, local, remote, data in
                ICECallbackTarget.agent(from: data)?.handleSelectedPair(local: local, remote: remote)
            }
        signalHandlerIDs = [
            agent_g_signal_connect(
                instance, "candidate-gathering-done", unsafeBitCast(gatheringDone, to: GCallback.self), data),
            agent_g_signal_connect(
                instance, "component-state-changed", unsafeBitCast(stateChanged, to: GCallback.self), data),
            agent_g_signal_connect(
                instance, "new-selected-pair-full", unsafeBitCast(selectedPair, to: GCallback.self), data),
        ]
    }
}
