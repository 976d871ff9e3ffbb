import Foundation

/// `agentd-bench encode`: live VP8 encoding. Per N, one `agentd-bench encode-worker` process
/// publishing N BotKit VideoTracks (one Bot each) of MovingSquare frames, beside N aiortc
/// publishers encoding their own moving square (peers/publisher.py --no-audio), in one room.
struct EncodeBenchmark {
    let options: PublishOptions

    func run() throws(BenchError) {
        let work = try options.run.makeWorkDirectory()
        let worker = try Self.ownExecutable()
        let size = "\(options.width)x\(options.height)"
        Console.line(MachineInfo.current().line)
        Console.line(options.labLine)
        Console.line(
            "agentd: one process (agentd-bench encode-worker) with N BotKit Bots, each one VideoTrack \(size)@\(options.fps) VP8,"
                + " \(options.bitrate / 1000) kb/s CBR, libvpx realtime speed \(options.speed), 1 thread, fed MovingSquare frames by one pusher thread per track")
        Console.line(
            "anchor: N aiortc peers/publisher.py --no-audio --video \(size) --fps \(options.fps) (numpy moving square; aiortc's VP8 encoder:"
                + " libvpx realtime cpu-used -6, 500 kb/s start adapted by REMB up to 1.5 Mb/s, noise-sensitivity 4)")
        Console.line("both open an idle data channel (publisher.py always does; the Bots offer one to match)")
        Console.line("room: one fresh room per N holding all 2N publishers (the first aiortc publisher creates it) and one `agentd record` subscribed to all")
        Console.line("window: \(Int(options.seconds)) s per run after \(Int(options.warmup)) s warm-up; worker \(worker); work dir \(work)")
        Console.line()
        let runner = PublishRunner(lab: options.run, table: PublishTable())
        try runner.run(options.streams.map { (kind: "vp8", streams: $0) }, work: work) { _, streams, directory in
            scenario(streams: streams, worker: worker, directory: directory)
        }
    }

    private func scenario(streams: Int, worker: String, directory: String) -> PublishScenario {
        let lab = options.run
        let lifetime = String(Int(lab.warmup + lab.seconds + 180))  // a leaked process still ends
        let size = "\(options.width)x\(options.height)"
        let prefix = "agentd"
        let ourDisplays = (0..<streams).map { EncodeWorker.display(prefix: prefix, index: $0) }
        var ours = PublisherSide(label: "agentd", displays: ourDisplays) { room, logs, tokenArguments throws(BenchError) in
            let child = try Child(
                name: "encode-worker", executable: worker,
                arguments: [
                    "encode-worker", "--server", lab.server, "--room", room, "--streams", String(streams), "--display-prefix", prefix,
                    "--size", size, "--fps", String(options.fps), "--bitrate", String(options.bitrate), "--speed", String(options.speed),
                    "--ice-allow", lab.iceAllow, "--duration", lifetime,
                ] + tokenArguments,
                logPath: "\(logs)/encode-worker.log")
            try child.waitForLine(prefix: "READY", timeout: 60)
            return [child]
        }
        ours.note = { children in children.first.flatMap { EncoderStats(stdoutLines: $0.stdoutLines)?.line } }
        let anchor = AiortcPublishers(
            lab: lab, script: "publisher.py",
            arguments: { _ in
                ["--no-audio", "--video", size, "--fps", String(options.fps), "--data-interval-ms", "0", "--duration", lifetime]
            },
            displays: (1...streams).map { "aiortc-\($0)" }, roomSize: 2 * streams + 1)
        return PublishScenario(
            lab: lab, kind: "vp8", streams: streams, sendsAudio: false, sendsVideo: true, ours: ours, anchor: anchor.side,
            workDirectory: directory)
    }

    /// This binary, which also serves as the worker.
    private static func ownExecutable() throws(BenchError) -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw BenchError("cannot find this executable through /proc/self/exe")
        }
        return path
    }
}
