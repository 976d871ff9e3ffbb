import Foundation

extension [Child] {
    /// Fails naming the first child that has exited.
    func checkRunning() throws(BenchError) {
        if let gone = first(where: { !$0.isRunning }) {
            throw BenchError("\(gone.name) exited with status \(gone.exitStatus ?? -1) during the run (\(gone.lastLogLine()))")
        }
    }

    /// Sleeps `seconds`, failing at once if any child exits meanwhile.
    func pause(_ seconds: TimeInterval, checkEvery interval: TimeInterval = 0.5) throws(BenchError) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            try checkRunning()
            Thread.sleep(forTimeInterval: Swift.min(interval, Swift.max(0, deadline.timeIntervalSinceNow)))
        }
        try checkRunning()
    }
}
