import Foundation

/// `agentd-bench record`: the 0-participant baseline, then one `RecordScenario` per N, each
/// printed as it finishes, then the table. Stops at the first N that fails and says why, still
/// printing the rows measured so far.
struct RecordBenchmark {
    let options: RecordOptions

    func run() throws(BenchError) {
        let work = try options.run.makeWorkDirectory()
        Console.line(MachineInfo.current().line)
        Console.line(options.labLine)
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

    private func runWithRetry(participants: Int, work: String) throws(BenchError) -> RecordResult {
        try RetryOnce.run("N=\(participants)", work: work) { directory throws(BenchError) in
            try RecordScenario(options: options, participants: participants, workDirectory: directory).run()
        }
    }

    private func fmt(_ value: Double) -> String { String(format: "%.2f", value) }
}
