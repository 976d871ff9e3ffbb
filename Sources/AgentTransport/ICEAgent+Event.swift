import AgentCore

extension ICEAgent {
    public enum Role: Sendable, Equatable {
        /// RFC 5245 §5.2: the controlling agent nominates the pair (the offerer, for full ICE).
        case controlling
        case controlled
    }

    public enum State: Sendable, Equatable {
        case new, gathering, connecting, connected, disconnected, failed, closed
    }

    public enum Event: Sendable, Equatable {
        /// All local candidates are known (``localCandidates`` is complete).
        case gatheringDone
        case stateChanged(State)
        /// libnice picked a pair (again after a restart): the path the media takes.
        case selectedPair(ICESelectedPair)
    }
}
