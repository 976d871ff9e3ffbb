import Foundation
import TestSupport
import Testing

/// The recorder recipe in the lab: `agentd bot` with an audience recipe records an aiortc
/// publisher the way `agentd record` does (one recording path), and ends by its duration.
@Suite("RecipeRecorder", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecipeRecorderTests {
    @Test("recorder: the recipe records a 440 Hz publisher into WebM and WAV with a final manifest")
    func recorder() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try RecipeLab("rrecorder")
            let talker = try lab.publisher("alice", tone: 440, seconds: 40)
            defer { talker.terminate() }
            _ = try await talker.waitForLine(prefix: "READY", within: .seconds(90))
            let out = lab.scratch.path("rec")
            let recipe = try lab.recipe("recorder", #"""
                {"name": "recorder", "role": "audience", "display": "recorder",
                 "record": {"formats": ["webm", "wav", "data"], "out": "\#(out)"}}
                """#)
            let bot = try lab.bot(recipe, seconds: 5)
            defer { bot.terminate() }
            try await pollUntil(timeout: .seconds(40), "agentd bot to end by its duration") { !bot.isRunning }
            let summary = bot.stderr.split(separator: "\n").last.map(String.init) ?? ""
            print("RecipeRecorder: \(summary)")
            #expect(bot.exitStatus == 0, "\(bot.stderr)")

            let manifestData = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
            let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
            #expect(manifest["ended_at"] is String, "the manifest is final")
            let names = (manifest["participants"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names == ["alice"], "participants \(names)")
            #expect(try await RecordingChecks.streamCodecs(out + "/alice.webm") == ["opus"])
            #expect(try await RecordingChecks.decodeErrors(out + "/alice.webm").isEmpty)
            let (samples, rate) = try RecordingChecks.samples(out + "/alice.wav")
            let seconds = Double(samples.count) / Double(rate)
            let tail = samples.suffix(2 * 48_000)
            let (tone, at660) = (goertzelPower(tail, frequency: 440), goertzelPower(tail, frequency: 660))
            print("RecipeRecorder: alice.wav \(String(format: "%.2f", seconds)) s, 440 Hz \(String(format: "%.0f", 10 * log10(tone / max(at660, 1)))) dB above 660 Hz")
            #expect(rate == 48_000 && seconds > 4.5 && seconds < 5.5, "\(seconds) s at \(rate) Hz for a 5 s recording")
            #expect(tone > 100 * at660)
        }
    }
}
