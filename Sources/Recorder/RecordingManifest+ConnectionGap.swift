extension RecordingManifest {
    /// A time the recorder was out of the room: it lost its connection at `start_ms` and was back
    /// at `end_ms` (`null` while it is still trying). `reason` is `reconnect`; `attempts` counts
    /// the tries it took. Reason `continued` (``continuedReason``): the recorder died and another
    /// one continued the recording in its directory from `end_ms` (``RecordingContinuation``);
    /// `start_ms` is the last time the dead one's manifest knew of.
    public struct ConnectionGap: Codable, Sendable, Equatable {
        public static let continuedReason = "continued"

        public var startMs: Int64
        public var endMs: Int64?
        public var reason: String
        public var attempts: Int

        public init(startMs: Int64, endMs: Int64? = nil, reason: String = "reconnect", attempts: Int = 1) {
            self.startMs = startMs
            self.endMs = endMs
            self.reason = reason
            self.attempts = attempts
        }

        enum CodingKeys: String, CodingKey {
            case reason, attempts
            case startMs = "start_ms"
            case endMs = "end_ms"
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(startMs, forKey: .startMs)
            try container.encode(endMs, forKey: .endMs)  // null while the gap is open
            try container.encode(reason, forKey: .reason)
            try container.encode(attempts, forKey: .attempts)
        }
    }
}
