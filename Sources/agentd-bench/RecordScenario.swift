import Foundation

/// One measured run: N aiortc publishers in a fresh room, recorded at the same time by
/// `agentd record` and by N aiortc subscribers (the anchor), sampled over a steady window.
struct RecordScenario {
    let options: RecordOptions
    let participants: Int
    let workDirectory: String

    /// Seconds a peer may take to print READY (aiortc ICE + DTLS on a loaded 2-core machine).
    private let readyTimeout: TimeInterval = 45
    /// How often RSS is sampled during the window.
    private let sampleInterval: TimeInterval = 0.5

    func run() throws(BenchError) -> RecordResult {
        defer { ChildRegistry.shared.stopAll() }
        let room = "bench-\(getpid())-n\(participants)-\(Int(Date().timeIntervalSince1970))"
        let runDirectory = "\(workDirectory)/n\(participants)"
        do {
            try FileManager.default.createDirectory(atPath: "\(runDirectory)/logs", withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create \(runDirectory): \(error.localizedDescription)")
        }

        let token = try LabToken.current(agentd: options.agentd)
        let tokenArguments = token.map { ["--token", $0] } ?? []
        let publishers = try startPublishers(room: room, logs: "\(runDirectory)/logs", tokenArguments: tokenArguments)
        let agentdOut = "\(runDirectory)/agentd"
        var agentdArguments = [
            "record", "--server", options.server, "--room", room, "--out", agentdOut,
            "--duration", String(Int(options.warmup + options.seconds + readyTimeout + 30)), "--ice-allow", options.iceAllow, "--json",
        ] + tokenArguments
        if participants == 0 { agentdArguments.append("--create") }
        let agentd = try Child(
            name: "agentd record", executable: options.agentd, arguments: agentdArguments,
            logPath: "\(runDirectory)/logs/agentd.log")
        var started: [Child] = []
        for index in 0..<participants {
            started.append(
                try Child(
                    name: "aiortc subscriber \(index + 1)", executable: options.python,
                    arguments: [
                        "\(options.peers)/subscriber.py", "--ws", options.server, "--room", room,
                        "--feed-display", Self.display(index), "--out", "\(runDirectory)/aiortc/\(Self.display(index))",
                        "--connect-timeout", String(Int(readyTimeout)),
                    ] + tokenArguments,
                    logPath: "\(runDirectory)/logs/subscriber-\(index + 1).log"))
        }
        let subscribers = started
        for subscriber in subscribers { try subscriber.waitForLine(prefix: "READY", timeout: readyTimeout) }

        // Warm-up: joins, ICE, DTLS and the first keyframes are not the steady state measured.
        try ([agentd] + subscribers + publishers).pause(options.warmup)
        let measured = try WindowMeter(seconds: options.seconds, sampleInterval: sampleInterval).measure(
            [.init(name: "agentd", children: [agentd]), .init(name: "aiortc", children: subscribers),
             .init(name: "publishers", children: publishers)],
            threadsOf: [agentd])
        let agentdFigures = measured.figures("agentd"), aiortcFigures = measured.figures("aiortc")

        // agentd and the anchor stop together; SIGTERM makes both finalize their files.
        DispatchQueue.concurrentPerform(iterations: subscribers.count + 1) { index in
            if index == 0 { agentd.stop(grace: 10) } else { subscribers[index - 1].stop(grace: 10) }
        }
        for publisher in publishers { kill(publisher.pid, SIGTERM) }
        let summary = AgentdSummary(stdoutLines: agentd.stdoutLines)
        let agentdFiles = DirectoryFiles(under: agentdOut, matching: [".webm", ".wav", ".ogg"])
        let aiortcFiles = DirectoryFiles(under: "\(runDirectory)/aiortc", matching: [".webm", ".wav"])
        return RecordResult(
            participants: participants, windowSeconds: measured.seconds, agentdCPU: agentdFigures.cpuPercent,
            agentdRSS: agentdFigures.rssMiB, agentdHWM: agentdFigures.peakMiB, aiortcCPU: aiortcFigures.cpuPercent,
            aiortcRSS: aiortcFigures.rssMiB, publishersCPU: measured.figures("publishers").cpuPercent, machineBusy: measured.machineBusy,
            agentdThreads: measured.threads.map { "\($0.name) \(String(format: "%.2f", $0.percent))" }, agentdExitStatus: agentd.exitStatus,
            agentdRecorded: summary?.participants, agentdDropped: summary?.eventsDropped,
            agentdFiles: agentdFiles.count, agentdEmptyFiles: agentdFiles.empty, agentdBytes: agentdFiles.bytes,
            aiortcFiles: aiortcFiles.count, aiortcEmptyFiles: aiortcFiles.empty, aiortcBytes: aiortcFiles.bytes)
    }

    static func display(_ index: Int) -> String { "pub\(index + 1)" }

    /// The first publisher creates the room; the others join once it exists.
    private func startPublishers(room: String, logs: String, tokenArguments: [String]) throws(BenchError) -> [Child] {
        var publishers: [Child] = []
        for index in 0..<participants {
            var arguments = [
                "\(options.peers)/publisher.py", "--ws", options.server, "--room", room, "--display", Self.display(index),
                "--tone", String(300 + 100 * index), "--video", options.videoSize, "--fps", String(options.fps),
                "--connect-timeout", String(Int(readyTimeout)),
            ] + tokenArguments
            if index == 0 { arguments.append("--create") }
            let publisher = try Child(
                name: "aiortc publisher \(index + 1)", executable: options.python, arguments: arguments,
                logPath: "\(logs)/publisher-\(index + 1).log")
            publishers.append(publisher)
            if index == 0 { try publisher.waitForLine(prefix: "READY", timeout: readyTimeout) }
        }
        for publisher in publishers { try publisher.waitForLine(prefix: "READY", timeout: readyTimeout) }
        return publishers
    }
}
