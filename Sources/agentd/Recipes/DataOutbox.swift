/// A bot's data messages, sent in order off the caller's thread: posted texts queue (the newest
/// 1000 are kept) and go one at a time through a ``DataSender``; those it could not send are counted.
final class DataOutbox: Sendable {
    static let capacity = 1000

    private let queue: AsyncStream<String>.Continuation
    private let sending: Task<Void, Never>
    private let failed: Shared<Int>

    init(_ sender: DataSender) {
        let (stream, queue) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.capacity))
        let failed = Shared(0)
        self.queue = queue
        self.failed = failed
        sending = Task {
            for await text in stream where !(await sender.deliver(text)) {
                failed.withLock { $0 += 1 }
            }
        }
    }

    func post(_ text: String) { queue.yield(text) }

    /// Messages that could not be sent.
    var failures: Int { failed.current }

    /// Takes no more, and returns when what waits has been sent (or has failed). Idempotent.
    func finish() async {
        queue.finish()
        await sending.value
    }
}
