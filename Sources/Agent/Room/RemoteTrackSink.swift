/// Something that consumes a remote track's frames: a decoder that hands media to user code, or
/// a pass-through. A ``RemoteTrack`` feeds all of its sinks.
///
/// **Threading.** The track calls ``receive(_:)``, ``frameLost()``, ``resume()`` and
/// ``finish()`` one call at a time, in frame order. For a channel's track that is on the
/// track's ``WorkerLane``, off the transport loop: a sink may decode there, but while it works
/// the track's next frames wait in the lane's bounded queue (and are dropped, counted, when it
/// is full), and other tracks may share the lane. Implementations are still safe to call from
/// any thread (the ones here guard their state with a mutex), and their counters may be read
/// from anywhere.
public protocol RemoteTrackSink: AnyObject, Sendable {
    /// One received frame of the track.
    func receive(_ frame: RemoteFrame)
    /// The receiver gave up on a frame (it never completed): video cannot decode on until a
    /// keyframe. Audio needs no notice: its gaps show in the RTP times.
    func frameLost()
    /// The track resumes after a pause (unmute): what follows does not continue what came before.
    func resume()
    /// The track ended: deliver what is left, finish any stream. Later frames are ignored.
    func finish()
    /// The sink was added to a track; `keyframeRequest` asks the track's sender for a keyframe
    /// (a video sink calls it when it starts waiting for one). The default ignores it.
    func attached(keyframeRequest: @escaping @Sendable () -> Void)
}

extension RemoteTrackSink {
    public func attached(keyframeRequest: @escaping @Sendable () -> Void) {}
}
