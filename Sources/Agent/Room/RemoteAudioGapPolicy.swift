/// How an audio sink fills holes in the RTP timeline, so that what it delivers keeps time with the
/// sender: one second of RTP time is always one second of frames.
///
/// - A gap up to ``concealUpTo`` (a lost packet or a few) is filled by libopus: packet loss
///   concealment, completed by in-band FEC from the packet after the gap when it carries some.
/// - A longer gap up to ``fillUpTo`` (DTX, a sender pausing) is filled with silence; concealment
///   only fades out over such a span anyway.
/// - A jump beyond ``fillUpTo`` (forward, or persistently backward: a sender that restarted) is not
///   filled: the timeline restarts at the new packet and its first frame says so
///   (``RemoteAudioFrame/isDiscontinuity``). That keeps a bad timestamp from producing minutes of
///   silence in one go.
public struct RemoteAudioGapPolicy: Sendable, Equatable {
    /// libopus conceals at most 120 ms in one call.
    public static let maximumConcealment: Duration = .milliseconds(120)

    public let concealUpTo: Duration
    public let fillUpTo: Duration

    public init(concealUpTo: Duration = .milliseconds(120), fillUpTo: Duration = .seconds(5)) throws(RemoteTrackError) {
        guard concealUpTo >= .zero, concealUpTo <= Self.maximumConcealment else {
            throw .invalidGapPolicy("concealUpTo must be 0 ... 120 ms, got \(concealUpTo)")
        }
        guard fillUpTo >= concealUpTo, fillUpTo <= .seconds(60) else {
            throw .invalidGapPolicy("fillUpTo must be \(concealUpTo) ... 60 s, got \(fillUpTo)")
        }
        self.concealUpTo = concealUpTo
        self.fillUpTo = fillUpTo
    }

    /// The defaults: conceal up to 120 ms, fill up to 5 s.
    public static let standard = RemoteAudioGapPolicy(unchecked: .milliseconds(120), .seconds(5))

    private init(unchecked concealUpTo: Duration, _ fillUpTo: Duration) {
        self.concealUpTo = concealUpTo
        self.fillUpTo = fillUpTo
    }

    /// ``concealUpTo`` in 48 kHz ticks.
    var concealTicks: Int64 { Self.ticks(concealUpTo) }
    /// ``fillUpTo`` in 48 kHz ticks.
    var fillTicks: Int64 { Self.ticks(fillUpTo) }

    private static func ticks(_ duration: Duration) -> Int64 {
        let parts = duration.components
        return parts.seconds * 48_000 + parts.attoseconds / 20_833_333_333_333
    }
}
