import Foundation
import Recorder

/// What `agentd record` says at the end: a short human report on stderr, or with `--json` a
/// summary object on stdout.
struct RecordSummary {
    let outcome: RecordingOutcome

    /// ": max_bytes" after "limit", so the text says which one.
    private var limitNote: String {
        if case .limit(let limit) = outcome.reason { ": \(limit.rawValue)" } else { "" }
    }

    func print(json: Bool, context: CommandContext) {
        let progress = outcome.progress
        let manifest = outcome.manifest
        let request = outcome.request
        if json {
            let participants: [[String: Any]] = manifest.participants.map { participant in
                ["name": participant.name, "display": participant.display, "files": participant.files.map(\.path)]
            }
            var object: [String: Any] = [
                "out": request.directory.path, "room": request.room, "server": request.displayServer, "stopped_by": outcome.reason.summaryName, "gaps": manifest.gaps.count,
                "duration_ms": Int(Date().timeIntervalSince(request.startedAt) * 1000), "bytes": progress.bytesWritten,
                "participants": participants, "events_dropped": progress.eventsDropped,
            ]
            if case .limit(let limit) = outcome.reason { object["limit"] = limit.rawValue }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            context.standardOutput(String(decoding: data, as: UTF8.self))
            return
        }
        context.standardError(
            "agentd: recorded \(manifest.participants.count) participant(s), \(ProgressLine.megabytes(progress.bytesWritten)) "
                + "into \(request.directory.path) (stopped by \(outcome.reason.summaryName)\(limitNote))")
    }
}
