import Foundation

/// Starts N aiortc publisher peers (peers/publisher.py or peers/player.py). The first creates
/// the room, sized for everyone the run puts in it, and is READY before the others join.
struct AiortcPublishers {
    let lab: LabRunOptions
    let script: String
    /// The script's own arguments for publisher `index` (media, duration).
    let arguments: (_ index: Int) -> [String]
    let displays: [String]
    /// Publishers the room must hold: ours and these.
    let roomSize: Int
    /// Seconds a peer may take to print READY (aiortc ICE + DTLS on a loaded 2-core machine).
    var readyTimeout: TimeInterval = 45

    var side: PublisherSide {
        PublisherSide(label: "aiortc", displays: displays) { room, logs, tokenArguments throws(BenchError) in
            try start(room: room, logs: logs, tokenArguments: tokenArguments)
        }
    }

    func start(room: String, logs: String, tokenArguments: [String]) throws(BenchError) -> [Child] {
        var children: [Child] = []
        for (index, display) in displays.enumerated() {
            var list = [
                "\(lab.peers)/\(script)", "--ws", lab.server, "--room", room, "--display", display,
                "--connect-timeout", String(Int(readyTimeout)),
            ] + arguments(index) + tokenArguments
            if index == 0 { list += ["--create", "--max-publishers", String(roomSize)] }
            let child = try Child(
                name: "aiortc \(display)", executable: lab.python, arguments: list, logPath: "\(logs)/\(display).log")
            children.append(child)
            if index == 0 { try child.waitForLine(prefix: "READY", timeout: readyTimeout) }
        }
        for child in children { try child.waitForLine(prefix: "READY", timeout: readyTimeout) }
        return children
    }
}
