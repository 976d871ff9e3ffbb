import Agent
import Foundation
import Recorder

/// The running part of `agentd record`: shows progress and waits for the duration, a signal, an
/// output failure or the connection ending for good, whichever comes first.
struct RecordSession: Sendable {
    enum EndReason: Sendable, Equatable {
        case duration, signal, outputFailed
        /// Out of the room for good: retries given up, refused, or the room destroyed.
        case disconnected(DisconnectReason)

        /// The summary's `stopped_by`.
        var name: String {
            switch self {
            case .duration: "duration"
            case .signal: "signal"
            case .outputFailed: "output_failed"
            case .disconnected(.roomDestroyed): "room_destroyed"
            case .disconnected(.refused): "refused"
            case .disconnected: "connection_lost"
            }
        }
    }

    let recorder: RoomRecorder
    let plan: RecordPlan
    let stopSignal: StopSignal
    let connection: ConnectionWatch

    func waitForEnd() async -> EndReason {
        let progress = ProgressLine()
        let started = ContinuousClock.now
        return await withTaskGroup(of: EndReason.self) { group in
            group.addTask { _ = await stopSignal.wait(); return .signal }
            group.addTask {
                for await reason in connection.lost { return .disconnected(reason) }
                // The stream ends without a reason when we leave: wait for the others.
                _ = await stopSignal.wait()
                return .signal
            }
            if let duration = plan.duration {
                // The recording's t=0 is when we started, before joining: count from there, so
                // a --duration 10 recording is 10 s long however long the join took.
                let remaining = max(0, duration - Date().timeIntervalSince(plan.startedAt))
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(Int64(remaining * 1000)))
                    return .duration
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    let snapshot = recorder.progress
                    if snapshot.outputError != nil { return .outputFailed }
                    let elapsed = Int((ContinuousClock.now - started) / .seconds(1))
                    // Averaged since the start: the recorder counts bytes when it refreshes its
                    // manifest, so a per-second difference would jump between 0 and double.
                    let kbps = elapsed > 0 ? snapshot.bytesWritten * 8 / 1000 / Int64(elapsed) : 0
                    progress.show(
                        "recording \(ProgressLine.clock(elapsed))  \(snapshot.participantsPresent) participant(s)  "
                            + "\(ProgressLine.megabytes(snapshot.bytesWritten))  \(kbps) kbps")
                }
                return .signal
            }
            let first = await group.next() ?? .signal
            group.cancelAll()
            return first
        }
    }
}
