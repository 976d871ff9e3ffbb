import AgentCore

/// A ``SubscriptionRouter/Route`` as `capture.json` holds it.
public struct CapturedRoute: Codable, Equatable, Sendable {
    public var mid: String
    public var participantID: String
    public var kind: MediaKind
    public var codec: String
    public var clockRate: Int
    public var ssrcs: [UInt32]
    public var midExtensionID: UInt8?
    public var audioLevelExtensionID: UInt8?

    enum CodingKeys: String, CodingKey {
        case mid, kind, codec, ssrcs
        case participantID = "participant_id"
        case clockRate = "clock_rate"
        case midExtensionID = "mid_extension_id"
        case audioLevelExtensionID = "audio_level_extension_id"
    }

    public init(_ route: SubscriptionRouter.Route) {
        mid = route.mid
        participantID = route.participantID
        kind = route.kind
        codec = route.codec.name
        clockRate = route.clockRate
        ssrcs = route.ssrcs
        midExtensionID = route.midExtensionID
        audioLevelExtensionID = route.audioLevelExtensionID
    }

    /// The route, or why this one cannot be one (an unknown codec, a clock rate out of range).
    public func route() throws(CaptureError) -> SubscriptionRouter.Route {
        guard let codec = MediaCodec.allCases.first(where: { $0.name == codec }) else {
            throw .invalidDescription("route \(mid.prefix(32)): unknown codec \(codec.prefix(32))")
        }
        guard (1_000...200_000).contains(clockRate) else {
            throw .invalidDescription("route \(mid.prefix(32)): clock rate \(clockRate) out of range")
        }
        guard !mid.isEmpty, mid.utf8.count <= 64, !participantID.isEmpty, participantID.utf8.count <= 256, ssrcs.count <= 16 else {
            throw .invalidDescription("route \(mid.prefix(32)): mid, participant or SSRCs out of bounds")
        }
        return SubscriptionRouter.Route(
            mid: mid, participantID: participantID, kind: kind, codec: codec, clockRate: clockRate, ssrcs: ssrcs,
            midExtensionID: midExtensionID, audioLevelExtensionID: audioLevelExtensionID)
    }
}
