import AgentCore

/// The Matroska CodecID of each codec (Matroska codec specs: "A_OPUS", "V_VP8", "V_VP9",
/// "V_MPEG4/ISO/AVC" for H.264, whose frames are length-prefixed NAL units with the
/// AVCDecoderConfigurationRecord in CodecPrivate, ISO/IEC 14496-15 §5.3), shared
/// by the recorder's WebM writer and the player's WebM reader.
extension MediaCodec {
    public var matroskaCodecID: String {
        switch self {
        case .opus: "A_OPUS"
        case .vp8: "V_VP8"
        case .vp9: "V_VP9"
        case .h264: "V_MPEG4/ISO/AVC"
        }
    }

    /// The codec a WebM TrackEntry names, or nil for one we do not handle ("A_VORBIS"...).
    /// CodecIDs are compared exactly, as Matroska defines them.
    public init?(matroskaCodecID: String) {
        guard let codec = Self.allCases.first(where: { $0.matroskaCodecID == matroskaCodecID }) else { return nil }
        self = codec
    }
}
