import Foundation

/// Waits for SIGTERM or SIGINT, or for a time limit, whichever comes first: how a worker the
/// benchmark started learns to finish cleanly (print its counters, leave the room).
enum StopRequest {
    static func wait(atMost seconds: Double) async {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let sources = [SIGTERM, SIGINT].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            return source
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            continuation.yield()
        }
        for await _ in stream { break }
        timer.cancel()
        sources.forEach { $0.cancel() }
    }
}
