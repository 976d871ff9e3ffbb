import Foundation

/// Who Janus lists as publishing in a room (`agentd participants --json`, which asks the
/// VideoRoom's listparticipants): the check that every publisher the benchmark measures is one
/// Janus really has, not a process talking to nobody.
struct RoomRoster: Sendable {
    /// Display names Janus lists with `publisher: true`.
    let publishing: Set<String>

    static func read(agentd: String, server: String, room: String, tokenArguments: [String]) throws(BenchError) -> RoomRoster {
        let (status, output) = try ToolOutput.run(
            agentd, ["participants", "--server", server, "--room", room, "--json"] + tokenArguments)
        guard status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let list = object["participants"] as? [[String: Any]]
        else { throw BenchError("agentd participants failed for room \(room) (status \(status))") }
        let names = list.compactMap { entry -> String? in
            guard (entry["publisher"] as? Bool) == true else { return nil }
            return entry["display"] as? String
        }
        return RoomRoster(publishing: Set(names))
    }

    /// Polls until every name in `displays` is listed as publishing, failing at `timeout` (naming
    /// who is missing) or as soon as one of `watching` exits.
    static func waitFor(
        _ displays: [String], agentd: String, server: String, room: String, tokenArguments: [String],
        timeout: TimeInterval, watching children: [Child]
    ) throws(BenchError) -> RoomRoster {
        let deadline = Date().addingTimeInterval(timeout)
        var roster = RoomRoster(publishing: [])
        while true {
            try children.checkRunning()
            roster = try read(agentd: agentd, server: server, room: room, tokenArguments: tokenArguments)
            let missing = displays.filter { !roster.publishing.contains($0) }
            if missing.isEmpty { return roster }
            if Date() >= deadline {
                throw BenchError("Janus does not list \(missing.joined(separator: ", ")) as publishing in \(room) after \(Int(timeout)) s")
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }
}
