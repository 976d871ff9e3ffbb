import Foundation

/// `agentd record`'s progress line while it records (elapsed, participants, MB written, kbps),
/// once a second, on a terminal only.
struct RecordProgress: Sendable {
    let job: RoomRecordingJob

    /// Shows the line until cancelled.
    func show() async {
        let line = ProgressLine()
        guard line.enabled else { return }
        var started: ContinuousClock.Instant?
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            guard job.isRecording, !Task.isCancelled else { continue }
            let start = started ?? .now
            started = start
            let snapshot = job.progress
            let elapsed = Int((ContinuousClock.now - start) / .seconds(1))
            // Averaged since the start: the recorder counts bytes when it refreshes its
            // manifest, so a per-second difference would jump between 0 and double.
            let kbps = elapsed > 0 ? snapshot.bytesWritten * 8 / 1000 / Int64(elapsed) : 0
            line.show(
                "recording \(ProgressLine.clock(elapsed))  \(snapshot.participantsPresent) participant(s)  "
                    + "\(ProgressLine.megabytes(snapshot.bytesWritten))  \(kbps) kbps")
        }
    }
}
