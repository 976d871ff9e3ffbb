/// A span of a recording's timeline, in milliseconds from its t=0 (`started_at`): when someone
/// spoke, when their video froze. `end_ms` is past the span's last moment.
public struct TimelineSpan: Codable, Sendable, Equatable {
    public var startMs: Int64
    public var endMs: Int64

    public init(startMs: Int64, endMs: Int64) {
        self.startMs = startMs
        self.endMs = endMs
    }

    /// Never negative, and no overflow whatever a manifest claimed.
    public var durationMs: Int64 {
        let (difference, overflow) = endMs.subtractingReportingOverflow(startMs)
        return overflow ? (endMs > startMs ? .max : 0) : max(0, difference)
    }

    enum CodingKeys: String, CodingKey {
        case startMs = "start_ms"
        case endMs = "end_ms"
    }
}
