/// The codecs agentd receives, records and sends: one identity for every layer (SDP, RTP,
/// decoders, containers, manifests), so no layer keeps its own list.
///
/// Facts that belong to one aspect live in extensions by aspect: RTP (payload types, SDP lines,
/// depacketizers, what SendStream packetizes) in `MediaCodec+RTP.swift`, the Matroska CodecID in
/// `MediaCodec+WebM.swift`. libvpx's view (VP8, VP9; not H.264) is `VPXCodec`.
///
/// The raw value is the SDP encoding name ("VP8"). User-visible lines print it (a codec refusal
/// says "VP8 video"), so it stays as it is.
public enum MediaCodec: String, Sendable, Hashable, CaseIterable {
    /// RFC 7587.
    case opus
    /// RFC 7741.
    case vp8 = "VP8"
    /// RFC 9628.
    case vp9 = "VP9"
    /// RFC 6184 (H.264 over RTP; agentd negotiates packetization-mode 1 only).
    case h264 = "H264"

    /// The encoding name of `a=rtpmap` lines, spelled as we write it.
    public var encodingName: String { rawValue }

    /// The lowercase name: the manifest's `codec` strings, Janus's room codec lists and the CLI's
    /// lines ("vp8").
    public var name: String { rawValue.lowercased() }

    public var kind: MediaKind {
        switch self {
        case .opus: .audio
        case .vp8, .vp9, .h264: .video
        }
    }

    /// The RTP clock rate (RFC 7587 §4.1: Opus is always 48 kHz; video 90 kHz).
    public var clockRate: Int {
        switch kind {
        case .audio: 48_000
        case .video: 90_000
        }
    }

    /// The channel count of the rtpmap line: Opus is always signalled as 2 (RFC 7587 §7);
    /// video has none (0).
    public var channels: Int {
        switch kind {
        case .audio: 2
        case .video: 0
        }
    }

    /// The codec of an rtpmap encoding name, compared case-insensitively (RFC 8866 §6.6).
    public init?(encodingName: String) {
        let lowercased = encodingName.lowercased()
        guard let codec = Self.allCases.first(where: { $0.name == lowercased }) else { return nil }
        self = codec
    }
}
