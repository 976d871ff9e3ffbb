import Synchronization

/// An `AsyncStream` of a sink's frames with a bounded buffer that counts what it drops.
///
/// The thread feeding the sink (a worker lane, shared with other tracks) must never wait on a
/// slow consumer, so when ``bufferLimit`` frames are
/// waiting the oldest is dropped for the newest (live media wants the latest), and ``dropped``
/// counts it. Iterate ``frames`` from one task.
public final class RemoteTrackFrameStream<Frame: Sendable>: Sendable {
    public let frames: AsyncStream<Frame>
    public let bufferLimit: Int
    private let continuation: AsyncStream<Frame>.Continuation
    private let droppedCount = Atomic<Int>(0)

    public init(bufferLimit: Int = 50) throws(RemoteTrackError) {
        guard bufferLimit >= 1 else { throw .invalidBufferLimit(bufferLimit) }
        self.bufferLimit = bufferLimit
        (frames, continuation) = AsyncStream.makeStream(of: Frame.self, bufferingPolicy: .bufferingNewest(bufferLimit))
    }

    /// Frames pushed out of the full buffer before the consumer took them.
    public var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Queues a frame without waiting; counts the one it pushes out if the buffer is full.
    public func yield(_ frame: Frame) {
        if case .dropped = continuation.yield(frame) {
            droppedCount.add(1, ordering: .relaxed)
        }
    }

    /// Ends the stream; the consumer's loop finishes once it has taken what is buffered.
    public func finish() {
        continuation.finish()
    }
}
