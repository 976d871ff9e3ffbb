import Foundation
import Testing

@testable import Recorder

/// The one manifest of a continued recording (``RecordingManifest/continued(after:)``) and how far
/// an earlier manifest got (``RecordingManifest/lastKnownMs``).
@Suite struct RecordingManifestContinuationTests {
    static let startedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// A recording killed at about 12 s: Alice (id 1) and Bob (id 2) present, a reconnect open.
    static func earlier() -> RecordingManifest {
        var manifest = RecordingManifest(room: "demo", server: "ws://old/", startedAt: startedAt, formats: ["webm", "wav"])
        var alice = RecordingManifest.Participant(
            id: "1", display: "Alice", name: "Alice", joinedMs: 500,
            files: [.init(path: "Alice.webm", format: "webm", startMs: 520, durationMs: 11_000),
                    .init(path: "Alice.wav", format: "wav", startMs: 0, durationMs: 11_900)],
            stats: .init(audio: .init(packets: 500, lost: 3, nacks: 1, firstFrameMs: 520, bytes: 40_000)))
        alice.resolutionChanges = [.init(tMs: 3000, width: 320, height: 240)]
        let bob = RecordingManifest.Participant(id: "2", display: "Bob", name: "Bob", joinedMs: 2000,
                                                files: [.init(path: "Bob.wav", format: "wav", startMs: 0, durationMs: 11_900)])
        manifest.participants = [alice, bob]
        manifest.files = [.init(path: "data.jsonl", format: "data", startMs: 0)]
        manifest.gaps = [.init(startMs: 11_000, endMs: nil, attempts: 2)]
        manifest.eventsDropped = 4
        manifest.writtenMs = 12_040
        return manifest
    }

    /// This run, from 20 s: Alice back (same id), Carol new, a part of data.jsonl.
    static func current() -> RecordingManifest {
        var manifest = RecordingManifest(room: "demo", server: "ws://new/", startedAt: startedAt, formats: ["webm", "wav", "mix"])
        let alice = RecordingManifest.Participant(
            id: "1", display: "Alice", name: "Alice", joinedMs: 20_200, leftMs: 24_000,
            files: [.init(path: "Alice.part2.webm", format: "webm", startMs: 20_250, durationMs: 3700),
                    .init(path: "Alice.part2.wav", format: "wav", startMs: 20_000, durationMs: 5000)],
            stats: .init(audio: .init(packets: 200, lost: 1, firstFrameMs: 20_250, bytes: 16_000)))
        let carol = RecordingManifest.Participant(id: "3", display: "Carol", name: "Carol", joinedMs: 21_000)
        manifest.participants = [alice, carol]
        manifest.files = [.init(path: "data.part2.jsonl", format: "data", startMs: 20_000)]
        manifest.gaps = [.init(startMs: 22_000, endMs: 22_500)]
        manifest.eventsDropped = 1
        manifest.writtenMs = 25_000
        return manifest
    }

    @Test("someone back with the same id is one entry with the new parts appended; the gap is listed; the rest keeps its place")
    func mergesOneParticipantAndListsTheGap() {
        let continuation = RecordingContinuation(earlier: Self.earlier(), originMs: 20_000, partNumbers: RecordingPartNumbers())
        #expect(continuation.earlierEndMs == 12_040)
        let merged = continuation.merged(Self.current())
        #expect(merged.startedAt == Self.startedAt)
        #expect(merged.participants.map(\.name) == ["Alice", "Bob", "Carol"])
        let alice = merged.participants[0]
        #expect(alice.files.map(\.path) == ["Alice.webm", "Alice.wav", "Alice.part2.webm", "Alice.part2.wav"])
        #expect(alice.ids == ["1"] && alice.joinedMs == 500 && alice.leftMs == 24_000)
        #expect(alice.stats.audio.packets == 700 && alice.stats.audio.lost == 4 && alice.stats.audio.bytes == 56_000)
        #expect(alice.stats.audio.firstFrameMs == 520)
        #expect(alice.resolutionChanges.count == 1)
        // Bob did not come back: gone when the earlier manifest ends.
        #expect(merged.participants[1].leftMs == 12_040)
        #expect(merged.participants[2].joinedMs == 21_000)
        #expect(merged.files.map(\.path) == ["data.jsonl", "data.part2.jsonl"])
        #expect(merged.formats == ["webm", "wav", "mix"])
        #expect(merged.eventsDropped == 5)
        #expect(merged.writtenMs == 25_000)
        // The reconnect open when the earlier recorder died ends there; then the continued gap.
        #expect(merged.gaps == [.init(startMs: 11_000, endMs: 12_040, attempts: 2),
                                .init(startMs: 12_040, endMs: 20_000, reason: "continued"),
                                .init(startMs: 22_000, endMs: 22_500)])
    }

    @Test("the same name with no id in common stays two entries (only the recorder's claim joins them)")
    func sameNameOtherIDStaysApart() {
        var current = Self.current()
        current.participants[0].id = "9"
        current.participants[0].ids = ["9"]
        let merged = RecordingContinuation(earlier: Self.earlier(), originMs: 20_000, partNumbers: RecordingPartNumbers()).merged(current)
        #expect(merged.participants.map(\.name) == ["Alice", "Bob", "Alice", "Carol"])
        #expect(merged.participants[0].leftMs == 12_040)
    }

    @Test("without written_ms, the latest file end, leave, gap or first frame is the last known time")
    func lastKnownWithoutWrittenMs() {
        var manifest = Self.earlier()
        manifest.writtenMs = nil
        #expect(manifest.lastKnownMs == 11_900)
        manifest.participants[1].leftMs = 11_950
        #expect(manifest.lastKnownMs == 11_950)
        // Never past this run's start, whatever the manifest claims.
        var hostile = RecordingManifest.File(path: "x", format: "data", startMs: .max)
        hostile.durationMs = .max
        manifest.files.append(hostile)
        #expect(manifest.lastKnownMs == .max)
        #expect(RecordingContinuation(earlier: manifest, originMs: 20_000, partNumbers: RecordingPartNumbers()).earlierEndMs == 20_000)
    }

    @Test("sums of hostile figures saturate instead of trapping")
    func hostileFiguresSaturate() {
        var earlier = Self.earlier()
        earlier.participants[0].stats.audio.packets = .max
        earlier.participants[0].stats.audio.bytes = .max
        earlier.eventsDropped = .max
        let merged = RecordingContinuation(earlier: earlier, originMs: 20_000, partNumbers: RecordingPartNumbers()).merged(Self.current())
        #expect(merged.participants[0].stats.audio.packets == .max)
        #expect(merged.participants[0].stats.audio.bytes == .max)
        #expect(merged.eventsDropped == .max)
    }
}
