import Agent
import Foundation
import Recorder
import TestSupport
import Testing

/// Issue 17's replay acceptance, with no lab: a real session captured from the lab (an aiortc
/// publisher beeping and flashing white together every second, scripts/make-replay-fixture) is
/// replayed through the receive path into a recorder, clean and damaged, and the files compared.
/// The damage is seeded, so every run sees the same packets lost.
@Suite("ReplayRecording", .serialized)
struct ReplayRecordingTests {
    static let fixture = Repository.root.appendingPathComponent("Tests/Fixtures/replay/aiortc-sync").path

    struct Replayed {
        let directory: String
        let counters: RTPReplay.Counters
        let manifest: RecordingManifest
        let webm: String
        let wav: String
    }

    /// Replays the fixture with `impairments` into a fresh recorder.
    static func replay(_ impairments: ReplayImpairments, in scratch: ScratchDirectory, name: String) async throws -> Replayed {
        let session = try CapturedSession.load(directory: fixture)
        let directory = RecordingDirectory(path: scratch.path(name))
        _ = try directory.prepare(existing: .refuseRecording)
        let recorder = try RoomRecorder(directory: directory, room: "replay", server: "replay", formats: .default, startedAt: session.startedAt)
        let replay = RTPReplay(session: session, impairments: impairments) { recorder.submit($0) }
        let counters = try await replay.run(pause: { await recorder.drained() })
        let manifest = await recorder.stop(endedAt: session.startedAt.addingTimeInterval(Double(replay.duration.totalNanoseconds) / 1e9))
        let participant = try #require(manifest.participants.first, "no participant recorded")
        print("Replay \(name): \(counters), \(recorder.eventsDropped) events dropped")
        return Replayed(directory: directory.path, counters: counters, manifest: manifest,
                        webm: directory.filePath(participant.name + ".webm"), wav: directory.filePath(participant.name + ".wav"))
    }

    /// Mean audio - video offset of the beep/white-frame pairs in a WebM, in ms.
    static func offset(_ webm: String, _ name: String) async throws -> Double {
        let beeps = try await AVSyncAnalysis.beepOnsets(webm)
        let (whites, _) = try await AVSyncAnalysis.whiteFrameOnsets(webm)
        let pairs = AVSyncAnalysis.pairs(beeps: beeps, whites: whites)
        print("Replay \(name): offsets \(pairs.map { String(format: "%+.1f", $0.offsetMs) }) ms (beeps \(beeps.count), white frames \(whites.count))")
        try #require(pairs.count >= 3, "\(name): only \(pairs.count) beep/white pairs")
        return pairs.map(\.offsetMs).reduce(0, +) / Double(pairs.count)
    }

    @Test("5 % loss, 2 % reorder, 50 ms jitter: a clean WebM, the WAV's exact length, A/V within 10 ms of the loss-free replay")
    func damagedReplayMatchesTheCleanOne() async throws {
        let scratch = try ScratchDirectory("replay")
        let clean = try await Self.replay(ReplayImpairments(), in: scratch, name: "clean")
        let damaged = try await Self.replay(
            ReplayImpairments(loss: 0.05, reorder: 0.02, jitter: .milliseconds(50), seed: 17), in: scratch, name: "damaged")
        // The damage was done (packets lost and reordered; jitter reorders more) and NACKs
        // brought most of it back, as the sender's retransmissions would.
        #expect(clean.counters.lost == 0 && clean.counters.nacked == 0)
        #expect(damaged.counters.lost > 0 && damaged.counters.reordered > 0 && damaged.counters.retransmitted > 0)
        #expect(damaged.counters.frames <= clean.counters.frames)
        for replayed in [clean, damaged] {
            let errors = try await RecordingChecks.decodeErrors(replayed.webm)
            #expect(errors.isEmpty, "decode errors in \(replayed.webm): \(errors.prefix(600))")
        }
        let cleanSamples = try RecordingChecks.samples(clean.wav).samples.count
        let damagedSamples = try RecordingChecks.samples(damaged.wav).samples.count
        #expect(cleanSamples > 48_000 * 4)
        #expect(damagedSamples == cleanSamples, "WAV lengths: \(damagedSamples) samples damaged, \(cleanSamples) clean")
        let cleanOffset = try await Self.offset(clean.webm, "clean")
        let damagedOffset = try await Self.offset(damaged.webm, "damaged")
        print(String(format: "Replay: A/V offset clean %+.1f ms, damaged %+.1f ms", cleanOffset, damagedOffset))
        #expect(abs(damagedOffset - cleanOffset) <= 10)
    }

    @Test("the same seed gives the same damage, another seed another")
    func damageIsRepeatable() async throws {
        let session = try CapturedSession.load(directory: Self.fixture)
        func run(_ seed: UInt64) async throws -> RTPReplay.Counters {
            let impairments = ReplayImpairments(loss: 0.05, reorder: 0.02, jitter: .milliseconds(50), seed: seed)
            return try await RTPReplay(session: session, impairments: impairments) { _ in }.run()
        }
        let first = try await run(5)
        let again = try await run(5)
        let other = try await run(6)
        #expect(first == again)
        #expect(first.lost != other.lost || first.frames != other.frames)
    }
}
