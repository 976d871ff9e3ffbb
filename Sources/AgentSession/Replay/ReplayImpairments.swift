/// What a replay does to the captured packets on their way in, as a network would, from a seed
/// (the same seed, the same damage): RTP packets lost, held back behind later ones, duplicated,
/// each delayed by a random jitter; and video senders whose media clock runs fast or slow.
/// Sender reports are never lost (they are few, and a loss of one is no test of anything).
public struct ReplayImpairments: Equatable, Sendable {
    /// Fractions of RTP packets (0...0.5) lost, reordered (held back 5-40 ms), and sent twice.
    public var loss = 0.0
    public var reorder = 0.0
    public var duplicate = 0.0
    /// Each packet is delayed by a uniform 0...jitter (packets overtake each other as they would).
    public var jitter = Duration.zero
    /// How much faster (negative: slower) the video senders' clocks run than the audio senders'
    /// (-0.1...0.1; 0.01 is 1 %): their RTP timestamps, and their sender reports' RTP times, are
    /// rewritten as such a clock would have stamped them.
    public var videoDrift = 0.0
    public var seed: UInt64 = 1

    public init(loss: Double = 0, reorder: Double = 0, duplicate: Double = 0, jitter: Duration = .zero, videoDrift: Double = 0, seed: UInt64 = 1) {
        self.loss = loss
        self.reorder = reorder
        self.duplicate = duplicate
        self.jitter = jitter
        self.videoDrift = videoDrift
        self.seed = seed
    }

    public static let maxFraction = 0.5
    public static let maxJitter = Duration.seconds(10)
    public static let maxDrift = 0.1

    /// Why these cannot be applied, or nil.
    public var problem: String? {
        for (name, value) in [("loss", loss), ("reorder", reorder), ("duplicate", duplicate)] where !(0...Self.maxFraction).contains(value) {
            return "\(name) must be between 0 and \(Int(Self.maxFraction * 100)) %"
        }
        if jitter < .zero || jitter > Self.maxJitter { return "jitter must be between 0 and 10 s" }
        if !(-Self.maxDrift...Self.maxDrift).contains(videoDrift) { return "video drift must be between -10 % and 10 %" }
        return nil
    }
}
