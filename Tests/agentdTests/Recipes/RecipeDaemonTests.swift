import Agent
import Foundation
import TestSupport
import Testing

/// `POST /v1/bots` on a real `agentd serve`: an inline recipe runs as a job whose tone a
/// subscriber hears, DELETE stops it with the runner's summary; a bad recipe is a 400 with its path.
@Suite("RecipeDaemon", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecipeDaemonTests {
    @Test("an inline tone recipe posted to /v1/bots is heard at 660 Hz; DELETE ends it done with its summary")
    func inlineRecipeJob() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try RecipeLab("rapi")
            let daemon = try await DaemonProcess.start(lab: lab.lab)
            defer { daemon.finish() }
            let client = daemon.client
            let bad = try await client.post("/v1/bots", #"{"recipe": {"name": "t", "tracks": {"audio": {"source": "tone", "frequency": 5}}}, "room": "x"}"#)
            #expect(bad.status == 400 && bad.json?["error"]?.stringValue?.contains("$.tracks.audio.frequency") == true, "\(bad.text)")
            let body = #"{"recipe": {"name": "apitone", "create": true, "tracks": {"audio": {"source": "tone", "frequency": 660}}}, "room": "\#(lab.room)"}"#
            let created = try await client.post("/v1/bots", body)
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(created.json?["id"]?.stringValue)
            _ = try await client.waitForJob(id, in: ["running"], within: .seconds(20))
            let subscriber = try lab.subscriber(of: "apitone", out: lab.scratch.path("sub"), seconds: 3)
            defer { subscriber.terminate() }
            _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(90))
            try await RecipeLab.finish(subscriber)
            let (samples, _) = try RecordingChecks.samples(lab.scratch.path("sub/audio.wav"))
            let middle = samples.dropFirst(24_000).prefix(2 * 48_000)
            let (tone, at440) = (goertzelPower(middle, frequency: 660), goertzelPower(middle, frequency: 440))
            print("RecipeDaemon: 660 Hz \(String(format: "%.0f", 10 * log10(tone / max(at440, 1)))) dB above 440 Hz over \(middle.count) samples")
            #expect(tone > 1000 * at440)
            #expect(try await client.delete("/v1/jobs/\(id)").status == 200)
            let done = try await client.waitForJob(id, in: ["done", "failed"], within: .seconds(20))
            print("RecipeDaemon: \(done.serialized())")
            #expect(done["state"] == "done" && done["recipe"] == "apitone" && done["stopped_by"] == "request", "\(done.serialized())")
            #expect(done["summary"]?.stringValue?.contains("recipe apitone") == true && (done["packets_sent"]?.integerValue ?? 0) > 50)
        }
    }
}
