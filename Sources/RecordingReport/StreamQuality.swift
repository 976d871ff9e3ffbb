import Recorder

/// One kind's receive figures for a participant, from the manifest's `stats`, with the loss as
/// a share of the packets sent (received + lost).
public struct StreamQuality: Codable, Sendable, Equatable {
    public var packets: Int64
    public var lost: Int64
    public var recovered: Int64
    public var nacks: Int64
    public var plis: Int64
    public var keyframes: Int64
    /// `lost / (packets + lost) * 100`, two decimals; 0 with no packets.
    public var lossPercent: Double

    public init(_ stats: RecordingManifest.KindStats) {
        packets = stats.packets
        lost = stats.lost
        recovered = stats.recovered
        nacks = stats.nacks
        plis = stats.plis
        keyframes = stats.keyframes
        let sent = max(0, Double(stats.packets)) + max(0, Double(stats.lost))
        lossPercent = sent > 0 ? (max(0, Double(stats.lost)) / sent * 10_000).rounded() / 100 : 0
    }

    enum CodingKeys: String, CodingKey {
        case packets, lost, recovered, nacks, plis, keyframes
        case lossPercent = "loss_percent"
    }
}
