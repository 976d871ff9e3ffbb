import Agent
import Foundation
import Recorder

/// What `agentd replay` says at the end: a line on stderr, or with --json one object on stdout.
struct ReplaySummary {
    let directory: String
    let counters: RTPReplay.Counters
    let manifest: RecordingManifest
    let eventsDropped: Int64

    func print(json: Bool, context: CommandContext) {
        if json {
            let participants: [[String: Any]] = manifest.participants.map { participant in
                ["name": participant.name, "display": participant.display, "files": participant.files.map(\.path)]
            }
            let object: [String: Any] = [
                "out": directory, "participants": participants, "rtp_delivered": counters.rtpDelivered,
                "sender_reports": counters.senderReports, "lost": counters.lost, "reordered": counters.reordered,
                "duplicated": counters.duplicated, "nacked": counters.nacked, "retransmitted": counters.retransmitted,
                "keyframe_requests": counters.keyframeRequests, "frames": counters.frames, "unparsable": counters.unparsable,
                "unroutable": counters.unroutable, "refused": counters.refused, "events_dropped": eventsDropped,
            ]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            context.standardOutput(String(decoding: data, as: UTF8.self))
            return
        }
        var damage: [String] = []
        if counters.lost > 0 { damage.append("\(counters.lost) lost") }
        if counters.reordered > 0 { damage.append("\(counters.reordered) reordered") }
        if counters.duplicated > 0 { damage.append("\(counters.duplicated) duplicated") }
        if counters.nacked > 0 { damage.append("\(counters.nacked) NACKed, \(counters.retransmitted) resent") }
        if counters.keyframeRequests > 0 { damage.append("\(counters.keyframeRequests) keyframe requests unanswered") }
        context.standardError(
            "agentd: replayed \(counters.rtpDelivered) RTP packets" + (damage.isEmpty ? "" : " (\(damage.joined(separator: ", ")))")
                + " and \(counters.senderReports) sender reports: \(counters.frames) frames of \(manifest.participants.count) participant(s) "
                + "into \(directory)" + (eventsDropped > 0 ? ", \(eventsDropped) events dropped" : ""))
    }
}
