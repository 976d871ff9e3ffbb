import Foundation

/// The parts of `agentd record --json`'s closing summary the benchmark checks: how many
/// participants agentd recorded and how many events it dropped (its bounded queue was full).
struct AgentdSummary: Sendable {
    let participants: Int
    let eventsDropped: Int

    /// Parses the JSON object in agentd's stdout; nil when there is none (agentd failed).
    init?(stdoutLines: [String]) {
        let text = stdoutLines.joined(separator: "\n")
        guard let start = text.firstIndex(of: "{"), let end = text.lastIndex(of: "}"), start < end,
            let object = try? JSONSerialization.jsonObject(with: Data(text[start...end].utf8)) as? [String: Any]
        else { return nil }
        participants = (object["participants"] as? [Any])?.count ?? 0
        eventsDropped = (object["events_dropped"] as? NSNumber)?.intValue ?? 0
    }
}
