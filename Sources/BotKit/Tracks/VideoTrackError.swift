import Agent

/// Why a ``VideoTrack`` refused a setting or a frame. A bad frame never traps: it is refused with
/// one of these, counted, and the track stays usable.
public enum VideoTrackError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A ``VideoTrack/Configuration`` value (or a runtime bitrate) is out of range, or the codec
    /// is not one the track encodes.
    case invalidConfiguration(String)
    /// The frame's planes are unusable: shorter than the size and strides require.
    case invalidFrame(I420FrameError)
    /// The codec cannot code a picture of this size (VP8 beyond 16383 pixels a side; H.264 odd,
    /// below 16x16 or beyond level 5.2); `reason` says which rule.
    case unsupportedSize(codec: MediaCodec, width: Int, height: Int, reason: String)
    /// The capture time is too far from the first frame's to express as a 64-bit RTP time.
    case captureTimeOutOfRange(Duration)
    /// libvpx or libopenh264 refused the frame or a setting.
    case encoder(VideoCodecError)
    /// The track was closed with ``VideoTrack/close()``.
    case closed

    public var description: String {
        switch self {
        case .invalidConfiguration(let reason): "invalid video track configuration: \(reason)"
        case .invalidFrame(let error): "invalid video frame: \(error)"
        case .unsupportedSize(_, let width, let height, let reason): "cannot encode a \(width)x\(height) frame: \(reason)"
        case .captureTimeOutOfRange(let elapsed): "capture time \(elapsed) after the first frame is out of range"
        case .encoder(let error): "video encoder failed: \(error)"
        case .closed: "the video track is closed"
        }
    }
}
