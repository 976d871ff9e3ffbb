import Agent

/// Why a ``VideoTrack`` refused a setting or a frame. A bad frame never traps: it is refused with
/// one of these, counted, and the track stays usable.
public enum VideoTrackError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A ``VideoTrack/Configuration`` value (or a runtime bitrate) is out of range.
    case invalidConfiguration(String)
    /// The frame's size or planes are unusable: too large for VP8, or planes shorter than the
    /// size and strides require.
    case invalidFrame(I420FrameError)
    /// The capture time is too far from the first frame's to express as a 64-bit RTP time.
    case captureTimeOutOfRange(Duration)
    /// libvpx refused the frame or a setting.
    case encoder(VPXError)
    /// The track was closed with ``VideoTrack/close()``.
    case closed

    public var description: String {
        switch self {
        case .invalidConfiguration(let reason): "invalid video track configuration: \(reason)"
        case .invalidFrame(let error): "invalid video frame: \(error)"
        case .captureTimeOutOfRange(let elapsed): "capture time \(elapsed) after the first frame is out of range"
        case .encoder(let error): "VP8 encoder failed: \(error)"
        case .closed: "the video track is closed"
        }
    }
}
