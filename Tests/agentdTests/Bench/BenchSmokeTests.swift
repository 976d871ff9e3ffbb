import Foundation
import TestSupport
import Testing

/// The benchmarks run in scripts/bench, in release, for their figures; here a short debug run of
/// each that needs no lab, so a broken benchmark is seen in CI: it exits 0 and prints its table
/// with a figure in every row.
@Suite("BenchSmoke", .serialized)
struct BenchSmokeTests {
    static var bench: String { AgentdBinary.builtProduct("agentd-bench") }

    /// The numbers of a table row that starts with `label` (after its leading spaces).
    static func figures(_ output: String, row label: String) -> [Double] {
        let line = output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) } ?? ""
        return line.split(separator: " ").compactMap { Double($0) }
    }

    @Test("replay: the receive path's ns and allocations per packet beside the floor, and CPU per participant in one recorder")
    func replay() async throws {
        let run = try await runTool(Self.bench, ["replay", "--repeat", "2", "--participants", "1,2",
                                                 "--capture", Repository.root.appendingPathComponent("Tests/Fixtures/replay/aiortc-sync").path])
        #expect(run.status == 0, "\(run.errors)")
        for label in ["floor", "receive → webm ", "receive → webm,wav", "Opus decode alone"] {
            let numbers = Self.figures(run.output, row: label)
            #expect(numbers.count >= 3 && numbers[0] > 0, "\(label): \(numbers) in\n\(run.output)")
        }
        let participants = run.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            .first { $0.count >= 5 && $0[0] == "webm,wav" && $0[1] == "2" }
        #expect(participants.map { Double($0[2]) ?? 0 > 0 } == true, "no webm,wav row for 2 participants in\n\(run.output)")
    }

    @Test("workers: jobs per second submitted and claimed beside one Redis round trip, all jobs finished")
    func workers() async throws {
        let run = try await runTool(Self.bench, ["workers", "--jobs", "60", "--claimers", "1,2"])
        #expect(run.status == 0, "\(run.errors)")
        let ping = Self.figures(run.output, row: "PING")
        #expect(ping.count >= 3 && ping[1] > 0, "\(run.output)")
        #expect(Self.figures(run.output, row: "claim + finish").count >= 3, "\(run.output)")
    }
}
