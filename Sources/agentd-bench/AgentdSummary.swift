import Foundation

/// The parts of `agentd record --json`'s closing summary the benchmark checks: how many
/// participants agentd recorded, which files each got, and how many events it dropped (its
/// bounded queue was full).
struct AgentdSummary: Sendable {
    let participants: Int
    let eventsDropped: Int
    /// Each recorded participant's files by display name, as paths under the recording directory.
    let filesByDisplay: [String: [String]]

    /// Parses the JSON object in agentd's stdout; nil when there is none (agentd failed).
    init?(stdoutLines: [String]) {
        let text = stdoutLines.joined(separator: "\n")
        guard let start = text.firstIndex(of: "{"), let end = text.lastIndex(of: "}"), start < end,
            let object = try? JSONSerialization.jsonObject(with: Data(text[start...end].utf8)) as? [String: Any]
        else { return nil }
        let list = object["participants"] as? [[String: Any]] ?? []
        participants = list.count
        eventsDropped = (object["events_dropped"] as? NSNumber)?.intValue ?? 0
        let out = object["out"] as? String ?? ""
        var files: [String: [String]] = [:]
        for participant in list {
            guard let display = participant["display"] as? String else { continue }
            let paths = (participant["files"] as? [String] ?? []).map { $0.hasPrefix("/") ? $0 : "\(out)/\($0)" }
            files[display, default: []] += paths
        }
        filesByDisplay = files
    }
}
