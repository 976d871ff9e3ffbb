extension LinkStateMachine {
    /// How a link recovers: the backoff, the ICE restart, the probe and the wording of the end.
    public struct Configuration: Sendable, Equatable {
        /// How to retry after a drop; ``ReconnectPolicy/never`` ends at the first drop.
        public var reconnect: ReconnectPolicy
        /// A media failure first tries an ICE restart on the link that is still up, before the
        /// link is torn down and rebuilt (that rebuild is then attempt 2).
        public var iceRestartFirst: Bool
        /// How long an ICE restart may take before the link is rebuilt instead.
        public var iceRestartTimeout: Duration
        /// Probes of the link unanswered in a row that make it lost (at least 1).
        public var probeMisses: Int
        /// Whose words the ending carries (the two loops this machine replaces said it differently).
        public var wording: Wording

        public init(
            reconnect: ReconnectPolicy = .standard, iceRestartFirst: Bool = true, iceRestartTimeout: Duration = .seconds(10),
            probeMisses: Int = 2, wording: Wording = .link
        ) {
            self.reconnect = reconnect
            self.iceRestartFirst = iceRestartFirst
            self.iceRestartTimeout = iceRestartTimeout
            self.probeMisses = max(1, probeMisses)
            self.wording = wording
        }
    }

    /// The two ways a recovery is told, kept so each user-visible text stays what it was.
    public enum Wording: Sendable, Equatable {
        /// A link rebuilt under a channel (JanusAudience): ``ConnectionState/reconnecting(attempt:)``
        /// 1 at the drop, even when the policy then gives up at once; the end reads
        /// "gave up after N attempt(s) in X s: <last error>", and a refusal is the server's error.
        case link
        /// A participant rejoining (Bot): attempt 1 is reported only when it will be made; the
        /// end reads "<drop>; gave up after N attempt(s) to rejoin" or
        /// "<drop>; rejoining was refused: <error>", and with no attempts allowed the drop itself.
        case rejoin
    }
}
