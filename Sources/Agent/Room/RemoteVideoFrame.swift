/// One decoded picture from a remote video track, with its time on the sender's clocks.
public struct RemoteVideoFrame: Sendable {
    public var participantID: String
    /// The picture, planes packed (stride equals width).
    public var image: I420Frame
    /// The unwrapped RTP timestamp of the frame it was decoded from, in ``clockRate`` units
    /// (90 kHz for VP8/VP9). Differences between frames are their presentation intervals.
    public var rtpTimestamp: Int64
    public var clockRate: Int
    /// Capture time on the sender's wall clock, nanoseconds since 1970 (see
    /// ``RemoteFrame/wallTimeNanoseconds``).
    public var wallTimeNanoseconds: Int64
    public var mappedBySenderReport: Bool
    /// Decoded from a keyframe.
    public var isKeyframe: Bool

    public init(participantID: String, image: I420Frame, rtpTimestamp: Int64, clockRate: Int,
                wallTimeNanoseconds: Int64, mappedBySenderReport: Bool, isKeyframe: Bool) {
        self.participantID = participantID
        self.image = image
        self.rtpTimestamp = rtpTimestamp
        self.clockRate = clockRate
        self.wallTimeNanoseconds = wallTimeNanoseconds
        self.mappedBySenderReport = mappedBySenderReport
        self.isKeyframe = isKeyframe
    }

    /// The RTP time as a duration from the RTP clock's zero; subtract two to get the interval.
    public var rtpTime: Duration {
        guard clockRate > 0 else { return .zero }
        let rate = Int64(clockRate)
        return .seconds(rtpTimestamp / rate) + .nanoseconds(rtpTimestamp % rate * 1_000_000_000 / rate)
    }
}
