import Foundation

/// `agentd-bench play`: pass-through publishing. Per kind and N, N `agentd play --loop`
/// processes (one stream each: the files' stored frames repacketized, no codec) beside N aiortc
/// MediaPlayer publishers of the same files (decoded and re-encoded), in one room.
struct PlayBenchmark {
    /// Issue 4's goal per pass-through stream.
    static let goalCPU = 0.2

    let options: PublishOptions

    func run() throws(BenchError) {
        let work = try options.run.makeWorkDirectory()
        let media = try PlayMedia.prepare(options, in: work)
        Console.line(MachineInfo.current().line)
        Console.line(options.labLine)
        media.lines.forEach { Console.line($0) }
        Console.line("agentd: N processes `agentd play --audio A --video V --loop --create` (kind av; audio or video alone for those kinds), one stream each")
        Console.line(
            "anchor: N aiortc peers/player.py, MediaPlayer(decode=\(options.aiortcDecodes ? "True" : "False")) per file"
                + (options.aiortcDecodes ? " (decodes and re-encodes Opus + VP8, aiortc's way to publish a file)" : " (sends the stored packets)")
                + ", opened again for each pass (MediaPlayer(loop=True) loses its pacing after the first pass)")
        Console.line("room: one fresh room per kind and N holding all 2N publishers (the first aiortc player creates it) and one `agentd record` subscribed to all")
        Console.line("window: \(f(options.seconds)) s per run after \(f(options.warmup)) s warm-up; agentd \(options.agentd); work dir \(work)")
        Console.line()
        let cases = options.kinds.flatMap { kind in options.streams.map { (kind: kind.rawValue, streams: $0) } }
        let runner = PublishRunner(lab: options.run, table: PublishTable(goalCPU: Self.goalCPU, goalName: "issue 4, pass-through"))
        try runner.run(cases, work: work) { kind, streams, directory in
            scenario(kind: StreamKind(rawValue: kind) ?? .av, streams: streams, media: media, directory: directory)
        }
    }

    private func scenario(kind: StreamKind, streams: Int, media: PlayMedia, directory: String) -> PublishScenario {
        let lab = options.run
        let lifetime = String(Int(lab.warmup + lab.seconds + 180))  // a leaked process still ends
        var files: [String] = []
        if kind.hasAudio { files += ["--audio", media.audio] }
        if kind.hasVideo { files += ["--video", media.video] }
        let ourDisplays = (1...streams).map { "agentd-\($0)" }
        let ours = PublisherSide(label: "agentd", displays: ourDisplays) { room, logs, tokenArguments throws(BenchError) in
            var children: [Child] = []
            for display in ourDisplays {
                children.append(
                    try Child(
                        name: "agentd play \(display)", executable: lab.agentd,
                        arguments: [
                            "play", "--server", lab.server, "--room", room, "--display", display, "--loop", "--create",
                            "--ice-allow", lab.iceAllow, "--duration", lifetime,
                        ] + files + tokenArguments,
                        logPath: "\(logs)/\(display).log"))
            }
            return children
        }
        let anchor = AiortcPublishers(
            lab: lab, script: "player.py",
            arguments: { _ in files + ["--loop", "--duration", lifetime] + (options.aiortcDecodes ? [] : ["--no-decode"]) },
            displays: (1...streams).map { "aiortc-\($0)" }, roomSize: 2 * streams + 1)
        return PublishScenario(
            lab: lab, kind: kind.rawValue, streams: streams, sendsAudio: kind.hasAudio, sendsVideo: kind.hasVideo, ours: ours,
            anchor: anchor.side, workDirectory: directory)
    }

    private func f(_ value: Double) -> String { String(format: "%.0f", value) }
}
