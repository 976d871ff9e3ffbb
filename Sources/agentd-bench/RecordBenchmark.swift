import Foundation

/// `agentd-bench record`: the 0-participant baseline, then one `RecordScenario` per N, each
/// printed as it finishes, then the table. Stops at the first N that fails and says why, still
/// printing the rows measured so far.
struct RecordBenchmark {
    let options: RecordOptions

    func run() throws(BenchError) {
        let work = try workDirectory()
        Console.line(MachineInfo.current().line)
        let loss = RecordOptions.labValue("LAB_LOSS") ?? "0"
        Console.line(
            "lab: \(options.server), ICE on \(options.iceAllow), token auth \(RecordOptions.labValue("LAB_TOKEN_SECRET") == nil ? "off" : "on"), lab packet loss \(loss) %"
                + (loss == "0" ? "" : " (set by scripts/lab --loss; NACK/PLI traffic is part of the figures)"))
        Console.line(
            "publishers: aiortc peers/publisher.py, Opus tone + VP8 \(options.videoSize)@\(options.fps) fps + data each"
                + " (small video keeps the 2-core machine from saturating on the publishers' own encoding)")
        Console.line("anchor: aiortc peers/subscriber.py per publisher (decodes, writes WAV + re-encodes VP8 WebM, like MediaRecorder)")
        Console.line(
            "window: \(fmt(options.seconds)) s per N after \(fmt(options.warmup)) s warm-up; agentd \(options.agentd); work dir \(work)")
        Console.line()

        var baseline: RecordResult?
        var results: [RecordResult] = []
        var failure: BenchError?
        if options.baseline {
            do {
                baseline = try runWithRetry(participants: 0, work: work)
                Console.line("N=0: agentd \(fmt(baseline!.agentdCPU)) %core, RSS \(fmt(baseline!.agentdRSS)) MB")
            } catch {
                failure = error
            }
        }
        if failure == nil {
            for n in options.participants {
                do {
                    let result = try runWithRetry(participants: n, work: work)
                    results.append(result)
                    Console.line(
                        "N=\(n): agentd \(fmt(result.agentdCPU)) %core, RSS \(fmt(result.agentdRSS)) MB;"
                            + " aiortc \(fmt(result.aiortcCPU)) %core, RSS \(fmt(result.aiortcRSS)) MB; machine busy \(fmt(result.machineBusy)) %")
                } catch {
                    failure = BenchError("N=\(n): \(error.description)")
                    break
                }
            }
        }
        Console.line()
        Console.line(ResultTable(results: results, baseline: baseline).render())
        if !options.keep && failure == nil { try? FileManager.default.removeItem(atPath: work) }
        if let failure {
            throw BenchError("\(failure.description) (logs kept in \(work))")
        }
    }

    /// The lab and the machine are shared with other work (tests restart Janus, builds saturate
    /// the cores), so a run that fails is tried once more, in a fresh room, before giving up.
    private func runWithRetry(participants: Int, work: String) throws(BenchError) -> RecordResult {
        do {
            waitForQuietMachine()
            return try RecordScenario(options: options, participants: participants, workDirectory: work).run()
        } catch {
            if ChildRegistry.shared.interruptedBy != 0 { throw error }
            Console.line("(N=\(participants) failed, trying once more: \(error.description))")
            waitForQuietMachine()
            return try RecordScenario(options: options, participants: participants, workDirectory: "\(work)/retry").run()
        }
    }

    /// The machine is shared (other builds and tests): before each run, wait up to a minute for
    /// it to be mostly idle over a 2 s sample, so figures are not taken beside a compiler.
    private func waitForQuietMachine() {
        let deadline = Date().addingTimeInterval(60)
        var busy = 0.0
        repeat {
            guard let before = MachineLoad.read() else { return }
            Thread.sleep(forTimeInterval: 2)
            guard let after = MachineLoad.read() else { return }
            busy = after.busyPercent(since: before)
            if busy < 25 { return }
        } while Date() < deadline
        Console.line("(machine still \(Int(busy)) % busy from other work after waiting 60 s; measuring anyway)")
    }

    private func workDirectory() throws(BenchError) -> String {
        let path = options.workDirectory ?? "\(NSTemporaryDirectory())agentd-bench-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create work directory \(path): \(error.localizedDescription)")
        }
        return path
    }

    private func fmt(_ value: Double) -> String { String(format: "%.2f", value) }
}
