import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// What an idle timeout and the end reason read from the recorder: since when the room has had
/// no publisher, and the final manifest's `stopped_by`.
@Suite(.offThePool) struct RoomRecorderIdleTests {
    @Test("emptySinceMs: 0 in a room that starts empty, nil while anyone is in, the last leave's time after")
    func emptySince() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let recorder = try RoomRecorderTests.makeRecorder(directory, formats: RecordingFormats([.wav]))
        #expect(recorder.progress.emptySinceMs == 0)

        var script = RoomEventScript()
        script.join("1", "Alice", atMs: 1000, video: false)
        script.join("2", "Bob", atMs: 2000, video: false)
        script.leave("1", atMs: 4000)
        for event in script.events { recorder.submit(event) }
        try await pollUntil(timeout: .seconds(10), "both to join and one to leave") {
            recorder.progress.participantsRecorded == 2 && recorder.progress.participantsPresent == 1
        }
        // One publisher is still in: not idle.
        #expect(recorder.progress.emptySinceMs == nil)

        var last = RoomEventScript()
        last.leave("2", atMs: 6500)
        for event in last.events { recorder.submit(event) }
        try await pollUntil(timeout: .seconds(10), "the last to leave") { recorder.progress.participantsPresent == 0 }
        #expect(recorder.progress.emptySinceMs == 6500)

        // Someone coming back ends the idle span again.
        var back = RoomEventScript()
        back.join("3", "Carol", atMs: 8000, video: false)
        for event in back.events { recorder.submit(event) }
        try await pollUntil(timeout: .seconds(10), "Carol to join") { recorder.progress.participantsPresent == 1 }
        #expect(recorder.progress.emptySinceMs == nil)

        let final = await recorder.stop(endedAt: RoomEventScript.date(ms: 9000), stoppedBy: "idle")
        #expect(final.stoppedBy == "idle")
        let written = try RoomRecorderTests.manifestJSON(directory)
        #expect(written["stopped_by"] as? String == "idle")
        #expect(written["state"] as? String == "finished")
    }

    @Test("the idle clock stops during the recorder's own outage and starts again from the reconnection")
    func ourOutagePausesTheIdleClock() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let recorder = try RoomRecorderTests.makeRecorder(directory, formats: RecordingFormats([.wav]))
        var script = RoomEventScript()
        script.join("1", "Alice", atMs: 500, video: false)
        script.leave("1", atMs: 1000)
        for event in script.events { recorder.submit(event) }
        try await pollUntil(timeout: .seconds(10), "Alice to leave") { recorder.progress.emptySinceMs == 1000 }

        var outage = RoomEventScript()
        outage.add(.connectionState(.reconnecting(attempt: 1), at: RoomEventScript.date(ms: 2000)), atMs: 2000)
        for event in outage.events { recorder.submit(event) }
        try await pollUntil(timeout: .seconds(10), "the outage to stop the idle clock") { recorder.progress.emptySinceMs == nil }

        var back = RoomEventScript()
        back.add(.connectionState(.connected, at: RoomEventScript.date(ms: 70_000)), atMs: 70_000)
        for event in back.events { recorder.submit(event) }
        try await pollUntil(timeout: .seconds(10), "the idle clock to restart at the reconnection") {
            recorder.progress.emptySinceMs == 70_000
        }
        _ = await recorder.stop(endedAt: RoomEventScript.date(ms: 71_000))
    }

    @Test("stopped_by is absent while recording and when the stopper names nothing; it survives a decode")
    func stoppedByRoundTrip() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let recorder = try RoomRecorderTests.makeRecorder(directory, formats: RecordingFormats([.data]))
        #expect(try RoomRecorderTests.manifestJSON(directory)["stopped_by"] == nil)
        let final = await recorder.stop(endedAt: RoomEventScript.date(ms: 100))
        #expect(final.stoppedBy == nil)
        var manifest = final
        manifest.stoppedBy = "limit"
        let decoded = try JSONDecoder().decode(RecordingManifest.self, from: try JSONEncoder().encode(manifest))
        #expect(decoded.stoppedBy == "limit")
        #expect(decoded == manifest)
    }
}
