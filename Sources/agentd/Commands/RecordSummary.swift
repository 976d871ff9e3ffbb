import Foundation
import Recorder

/// What `agentd record` says at the end: a short human report on stderr, or with `--json` a
/// summary object on stdout.
struct RecordSummary {
    let plan: RecordPlan
    let manifest: RecordingManifest
    let recorder: RoomRecorder
    let reason: RecordSession.EndReason

    func print(json: Bool, context: CommandContext) {
        let progress = recorder.progress
        if json {
            let participants: [[String: Any]] = manifest.participants.map { participant in
                ["name": participant.name, "display": participant.display, "files": participant.files.map(\.path)]
            }
            let object: [String: Any] = [
                "out": plan.directory.path, "room": plan.room, "server": plan.server, "stopped_by": reason.name, "gaps": manifest.gaps.count,
                "duration_ms": Int(Date().timeIntervalSince(plan.startedAt) * 1000), "bytes": progress.bytesWritten,
                "participants": participants, "events_dropped": progress.eventsDropped,
            ]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            context.standardOutput(String(decoding: data, as: UTF8.self))
            return
        }
        context.standardError(
            "agentd: recorded \(manifest.participants.count) participant(s), \(ProgressLine.megabytes(progress.bytesWritten)) "
                + "into \(plan.directory.path) (stopped by \(reason.name))")
    }
}
