import Foundation

/// Runs publish scenarios one after another, printing each as it finishes, then the table.
/// Stops at the first case that fails twice and says why, still printing the rows so far.
struct PublishRunner {
    let lab: LabRunOptions
    let table: PublishTable

    func run(
        _ cases: [(kind: String, streams: Int)], work: String,
        scenario: (_ kind: String, _ streams: Int, _ directory: String) -> PublishScenario
    ) throws(BenchError) {
        var results: [PublishResult] = []
        var failure: BenchError?
        for (kind, streams) in cases {
            do {
                let result = try RetryOnce.run("\(kind) N=\(streams)", work: work) { directory throws(BenchError) in
                    try scenario(kind, streams, directory).run()
                }
                results.append(result)
                Console.line(line(result))
            } catch {
                failure = BenchError("\(kind) N=\(streams): \(error.description)")
                break
            }
        }
        Console.line()
        var finished = table
        finished.results = results
        Console.line(finished.render())
        if !lab.keep && failure == nil { try? FileManager.default.removeItem(atPath: work) }
        if let failure { throw BenchError("\(failure.description) (logs kept in \(work))") }
    }

    private func line(_ result: PublishResult) -> String {
        let mine = result.oursFigures, theirs = result.anchorFigures
        let n = Double(result.streams)
        return "\(result.kind) N=\(result.streams): \(result.ours) \(f(mine.cpuPercent)) %core (\(f(mine.cpuPercent / n)) /stream),"
            + " RSS \(f(mine.rssMiB)) MB; \(result.anchor) \(f(theirs.cpuPercent)) %core (\(f(theirs.cpuPercent / n)) /stream),"
            + " RSS \(f(theirs.rssMiB)) MB; recorder \(f(result.recorderFigures.cpuPercent)) %core; machine busy \(f(result.measurement.machineBusy)) %;"
            + " received \(result.reception.side(result.ours).isComplete ? "ok" : "BAD") | \(result.reception.side(result.anchor).isComplete ? "ok" : "BAD")"
    }

    private func f(_ value: Double) -> String { String(format: "%.2f", value) }
}
