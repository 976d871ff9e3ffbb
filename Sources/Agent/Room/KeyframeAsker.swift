import Synchronization

/// Where a video sink's keyframe requests go: the user's handler (told why) and the sender,
/// through the ``RemoteTrack`` the sink is attached to. Shared by the sinks that wait for
/// keyframes (``RemoteVideoSink``, ``RemoteTrackEncodedSink``).
final class KeyframeAsker: Sendable {
    private let onKeyframeNeeded: (@Sendable (RemoteVideoKeyframeGate.Reason) -> Void)?
    private let trackRequest = Mutex<LockedCallback<@Sendable () -> Void>?>(nil)

    init(onKeyframeNeeded: (@Sendable (RemoteVideoKeyframeGate.Reason) -> Void)?) {
        self.onKeyframeNeeded = onKeyframeNeeded
    }

    /// The track's way to the sender (``RemoteTrackSink/attached(keyframeRequest:)``).
    func attach(_ request: @escaping @Sendable () -> Void) {
        trackRequest.withLock { $0 = LockedCallback(request) }
    }

    /// Tells the user's handler why, and asks the sender through the track. Call outside the
    /// sink's lock.
    func ask(_ reason: RemoteVideoKeyframeGate.Reason) {
        onKeyframeNeeded?(reason)
        trackRequest.withLock { $0 }?.call()
    }
}
