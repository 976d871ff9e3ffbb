/// Decides which video frames may pass to a decoder (or a file) and when to ask the sender for a
/// keyframe: nothing decodes before the first keyframe, nor after a frame was lost or failed to
/// decode, until the next one.
///
/// A plain state machine. It asks once per wait: the channel's ``KeyframeRequester`` repeats and
/// escalates (PLI, then FIR) at a bounded rate while ``isWaiting`` stays true, so a sink dropping
/// thirty frames a second must not turn each into a request of its own.
public struct RemoteVideoKeyframeGate: Sendable, Equatable {
    /// Why a keyframe is wanted.
    public enum Reason: String, Sendable, Equatable {
        /// Frames arrived, but none was a keyframe yet.
        case start
        /// The receiver gave up on a frame; what follows references it.
        case frameLost
        /// The decoder failed on a frame.
        case decodeError
        /// The track was unmuted; frames were skipped while it was muted.
        case resumed
        /// The codec changed (renegotiation); the new decoder starts from nothing.
        case codecChanged
    }

    /// True until a keyframe passes.
    public private(set) var isWaiting = true
    /// Whether this wait has asked for a keyframe already.
    private var requested = false

    public init() {}

    /// Whether a frame may pass, and a keyframe request to make if one is due. A keyframe ends
    /// the wait; other frames pass only when not waiting.
    public mutating func admit(isKeyframe: Bool) -> (pass: Bool, request: Reason?) {
        if !isWaiting { return (true, nil) }
        if isKeyframe {
            isWaiting = false
            requested = false
            return (true, nil)
        }
        if requested { return (false, nil) }
        requested = true
        return (false, .start)
    }

    /// Starts waiting for a keyframe because of `reason`; returns the request to make, or nil when
    /// this wait has already asked.
    public mutating func interrupt(_ reason: Reason) -> Reason? {
        if isWaiting, requested { return nil }
        isWaiting = true
        requested = true
        return reason
    }
}
