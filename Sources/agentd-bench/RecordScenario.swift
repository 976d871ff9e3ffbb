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
        try pause(options.warmup, watching: [agentd] + subscribers + publishers)
        let result = try measure(agentd: agentd, subscribers: subscribers, publishers: publishers)

        // agentd and the anchor stop together; SIGTERM makes both finalize their files.
        DispatchQueue.concurrentPerform(iterations: subscribers.count + 1) { index in
            if index == 0 { agentd.stop(grace: 10) } else { subscribers[index - 1].stop(grace: 10) }
        }
        for publisher in publishers { kill(publisher.pid, SIGTERM) }
        let summary = AgentdSummary(stdoutLines: agentd.stdoutLines)
        let agentdFiles = DirectoryFiles(under: agentdOut, matching: [".webm", ".wav", ".ogg"])
        let aiortcFiles = DirectoryFiles(under: "\(runDirectory)/aiortc", matching: [".webm", ".wav"])
        return RecordResult(
            participants: participants, windowSeconds: result.window, agentdCPU: result.agentdCPU,
            agentdRSS: result.agentdRSS, agentdHWM: result.agentdHWM, aiortcCPU: result.aiortcCPU, aiortcRSS: result.aiortcRSS,
            publishersCPU: result.publishersCPU, machineBusy: result.machineBusy,
            agentdThreads: result.agentdThreads.map { "\($0.name) \(String(format: "%.2f", $0.percent))" }, agentdExitStatus: agentd.exitStatus,
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

    /// Sleeps `seconds`, failing at once if any of `children` exits meanwhile.
    private func pause(_ seconds: TimeInterval, watching children: [Child]) throws(BenchError) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            try checkRunning(children)
            Thread.sleep(forTimeInterval: min(sampleInterval, max(0, deadline.timeIntervalSinceNow)))
        }
        try checkRunning(children)
    }

    private func checkRunning(_ children: [Child]) throws(BenchError) {
        if let gone = children.first(where: { !$0.isRunning }) {
            throw BenchError("\(gone.name) exited with status \(gone.exitStatus ?? -1) during the run (\(gone.lastLogLine()))")
        }
    }

    private struct Window {
        var window = 0.0
        var agentdCPU = 0.0
        var agentdRSS = 0.0
        var agentdHWM = 0.0
        var aiortcCPU = 0.0
        var aiortcRSS = 0.0
        var publishersCPU = 0.0
        var machineBusy = 0.0
        var agentdThreads: [(name: String, percent: Double)] = []
    }

    /// CPU is the difference of utime+stime across the window over its wall time; RSS the
    /// largest value sampled every half second.
    private func measure(agentd: Child, subscribers: [Child], publishers: [Child]) throws(BenchError) -> Window {
        func read(_ child: Child) throws(BenchError) -> ProcessSample {
            guard let sample = ProcessSample.read(pid: child.pid) else {
                throw BenchError("cannot read /proc/\(child.pid) of \(child.name) (exited? \(child.lastLogLine()))")
            }
            return sample
        }
        func ticks(_ children: [Child]) throws(BenchError) -> UInt64 {
            var total: UInt64 = 0
            for child in children { total += try read(child).cpuTicks }
            return total
        }
        let startLoad = MachineLoad.read()
        let start = Date()
        let agentdStart = try read(agentd).cpuTicks
        let threadsStart = ThreadTimes.read(pid: agentd.pid)
        let subscribersStart = try ticks(subscribers)
        let publishersStart = try ticks(publishers)
        var window = Window()
        let end = start.addingTimeInterval(options.seconds)
        while Date() < end {
            try checkRunning([agentd] + subscribers + publishers)
            window.agentdRSS = max(window.agentdRSS, Double(try read(agentd).rssKiB) / 1024)
            var sum: UInt64 = 0
            for subscriber in subscribers { sum += try read(subscriber).rssKiB }
            window.aiortcRSS = max(window.aiortcRSS, Double(sum) / 1024)
            Thread.sleep(forTimeInterval: min(sampleInterval, max(0, end.timeIntervalSinceNow)))
        }
        let agentdEnd = try read(agentd)
        let threadsEnd = ThreadTimes.read(pid: agentd.pid)
        let subscribersEnd = try ticks(subscribers)
        let publishersEnd = try ticks(publishers)
        let elapsed = Date().timeIntervalSince(start)
        func percent(_ from: UInt64, _ to: UInt64) -> Double {
            Double(to &- from) / ProcessSample.ticksPerSecond / elapsed * 100
        }
        window.window = elapsed
        window.agentdCPU = percent(agentdStart, agentdEnd.cpuTicks)
        window.agentdRSS = max(window.agentdRSS, Double(agentdEnd.rssKiB) / 1024)
        window.agentdThreads = threadsEnd.percents(since: threadsStart, seconds: elapsed)
        window.agentdHWM = Double(agentdEnd.peakRSSKiB) / 1024
        window.aiortcCPU = percent(subscribersStart, subscribersEnd)
        window.publishersCPU = percent(publishersStart, publishersEnd)
        if let startLoad, let endLoad = MachineLoad.read() { window.machineBusy = endLoad.busyPercent(since: startLoad) }
        return window
    }
}
