/// Where a sink hands its frames: a closure, or a bounded stream.
public enum RemoteTrackDelivery<Frame: Sendable>: Sendable {
    /// Called synchronously on the thread that feeds the sink, which for a channel's tracks is
    /// the track's ``WorkerLane``: a thread that other tracks' decoders may share, with a bounded
    /// queue in front of it. The closure must return quickly (copy the frame into your own queue,
    /// bump a counter) and must not block or wait for other work; anything slow belongs on the
    /// other side of a queue, such as ``stream(_:)``.
    case handler(@Sendable (Frame) -> Void)
    /// Queued on a bounded ``RemoteTrackFrameStream``, to be consumed from a task.
    case stream(RemoteTrackFrameStream<Frame>)

    /// A bounded stream delivery and the stream to consume, holding at most `bufferLimit` frames.
    public static func bounded(_ bufferLimit: Int) throws(RemoteTrackError) -> (RemoteTrackDelivery, AsyncStream<Frame>) {
        let stream = try RemoteTrackFrameStream<Frame>(bufferLimit: bufferLimit)
        return (.stream(stream), stream.frames)
    }

    func deliver(_ frame: Frame) {
        switch self {
        case .handler(let handler): handler(frame)
        case .stream(let stream): stream.yield(frame)
        }
    }

    /// Frames the stream dropped; a handler drops none.
    var dropped: Int {
        switch self {
        case .handler: 0
        case .stream(let stream): stream.dropped
        }
    }

    func finish() {
        if case .stream(let stream) = self { stream.finish() }
    }
}
