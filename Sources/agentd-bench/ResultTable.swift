import Foundation

/// Prints the results as a fixed-width table, with per-participant figures, the ratio to the
/// anchor measured in the same run, and the issue's goal for agentd.
struct ResultTable {
    /// Issue 3's goal per A/V participant.
    static let goalCPU = 0.3
    static let goalMiB = 8.0
    /// Machine busy percent from which a row is marked saturated.
    static let saturated = 95.0

    let results: [RecordResult]
    let baseline: RecordResult?

    func render() -> String {
        var lines: [String] = []
        let header = [
            "N", "agentd %core", "/part", "RSS MB", "/part", "Δbase/part", "aiortc %core", "/part", "RSS MB", "/part",
            "CPU ratio", "RSS ratio", "pubs %core", "busy %", "files agentd | aiortc",
        ]
        var rows: [[String]] = [header]
        if let baseline {
            rows.append([
                "0", f(baseline.agentdCPU, 2), "-", f(baseline.agentdRSS, 1), "-", "-", "-", "-", "-", "-", "-", "-", "-",
                busy(baseline.machineBusy), "exit \(baseline.agentdExitStatus.map(String.init) ?? "?")",
            ])
        }
        for result in results {
            let n = Double(result.participants)
            let agentdCPUPer = result.agentdCPU / n
            let aiortcCPUPer = result.aiortcCPU / n
            let agentdRSSPer = result.agentdRSS / n
            let aiortcRSSPer = result.aiortcRSS / n
            rows.append([
                String(result.participants), f(result.agentdCPU, 2), f(agentdCPUPer, 2), f(result.agentdRSS, 1),
                f(agentdRSSPer, 1), marginal(result).map { f($0, 1) } ?? "-", f(result.aiortcCPU, 1), f(aiortcCPUPer, 1),
                f(result.aiortcRSS, 0), f(aiortcRSSPer, 0), ratio(result.agentdCPU, result.aiortcCPU),
                ratio(result.agentdRSS, result.aiortcRSS), f(result.publishersCPU, 0), busy(result.machineBusy),
                files(result),
            ])
        }
        lines += TextTable.lines(rows)
        lines.append(contentsOf: legend())
        lines.append("")
        for result in ([baseline].compactMap { $0 } + results) {
            lines.append("  agentd threads at N=\(result.participants) (%core): " + result.agentdThreads.prefix(6).joined(separator: ", "))
        }
        lines.append(contentsOf: goalLines())
        return lines.joined(separator: "\n")
    }

    /// agentd's RSS above its 0-participant baseline, per participant: what each one costs.
    private func marginal(_ result: RecordResult) -> Double? {
        guard let baseline, result.participants > 0 else { return nil }
        return (result.agentdRSS - baseline.agentdRSS) / Double(result.participants)
    }

    private func files(_ result: RecordResult) -> String {
        let agentdOK =
            result.agentdFiles > 0 && result.agentdEmptyFiles == 0 && result.agentdExitStatus == 0
            && result.agentdRecorded == result.participants
        let aiortcOK = result.aiortcFiles == 2 * result.participants && result.aiortcEmptyFiles == 0
        return "\(agentdOK ? "ok" : "BAD") \(result.agentdRecorded.map(String.init) ?? "?") recorded, \(result.agentdFiles) files \(mb(result.agentdBytes)), \(result.agentdDropped.map(String.init) ?? "?") dropped"
            + (result.agentdExitStatus == 0 ? "" : ", exit \(result.agentdExitStatus.map(String.init) ?? "?")")
            + " | \(aiortcOK ? "ok" : "BAD") \(result.aiortcFiles) files \(mb(result.aiortcBytes))"
            + (result.agentdEmptyFiles + result.aiortcEmptyFiles > 0
                ? " (empty: agentd \(result.agentdEmptyFiles), aiortc \(result.aiortcEmptyFiles))" : "")
    }

    private func legend() -> [String] {
        [
            "",
            "  %core: CPU time over the window as percent of ONE core (utime+stime from /proc/<pid>/stat, 10 ms ticks).",
            "  RSS MB: largest VmRSS sampled every 0.5 s (aiortc: sum over its N processes); Δbase/part: agentd RSS",
            "  above the 0-participant run, per participant. ratio = agentd / aiortc (lower is better for agentd).",
            "  pubs %core: the N aiortc publishers (load beside the recorders); busy %: all cores busy over the window,",
            "  * = machine saturated (>= \(Int(Self.saturated)) %): recorders compete for CPU, aiortc may drop frames, figures are rough.",
            "  Thread names are /proc comm (15 chars): oot.default-qos = com.apple.root.default-qos (Swift concurrency pool),",
            "  -qos.overcommit = com.apple.root.default-qos.overcommit (Dispatch serial queues, e.g. the recorder's).",
        ]
    }

    private func goalLines() -> [String] {
        guard let largest = results.max(by: { $0.participants < $1.participants }) else { return [] }
        let n = Double(largest.participants)
        let cpu = largest.agentdCPU / n
        let memory = marginal(largest) ?? largest.agentdRSS / n
        let memoryKind = marginal(largest) == nil ? "RSS/part" : "Δbase/part"
        return [
            "",
            "goal (issue 3): <= \(f(Self.goalCPU, 1)) %core and <= \(f(Self.goalMiB, 0)) MB per A/V participant."
                + " At N=\(largest.participants): \(f(cpu, 2)) %core/part (\(cpu <= Self.goalCPU ? "met" : "NOT met")),"
                + " \(f(memory, 1)) MB \(memoryKind) (\(memory <= Self.goalMiB ? "met" : "NOT met")),"
                + " \(f(largest.agentdRSS / n, 1)) MB RSS/part including the process baseline.",
        ]
    }

    private func busy(_ value: Double) -> String { f(value, 0) + (value >= Self.saturated ? "*" : "") }
    private func f(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }
    private func mb(_ bytes: UInt64) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
    private func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.3f", a / b) : "-" }
}
