import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// A recording continued in its directory by a second ``RoomRecorder`` (`continuing: true`): one
/// timeline from the first run's t=0, every file a new part, one manifest, the gap listed; and a
/// continuation whose join failed puts the directory back (``RoomRecorder/abandon(endedAt:)``).
@Suite(.offThePool) struct RoomRecorderContinuationTests {
    static let formats = RecordingFormats([.webm, .wav, .ogg, .mix, .data])

    /// The first run: Alice (id 1, audio + video) and Bob (id 2, audio) for 8 s, a data message.
    static func firstRun(in directory: TestDirectory) async throws {
        var script = RoomEventScript()
        script.join("1", "Alice", atMs: 0)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 8000)
        script.video("1", frames: try RoomEventScript.encodeVideo(count: 240, width: 320, height: 240), fromMs: 0)
        script.join("2", "Bob", atMs: 1000, video: false)
        try script.audio("2", frequency: 660, fromMs: 1000, toMs: 8000, rtpBase: 4_000_000_000)
        script.add(.data(participantID: "1", payload: .text("before"), at: RoomEventScript.date(ms: 2000)), atMs: 2000)
        let recorder = try RoomRecorder(directory: RecordingDirectory(path: directory.path), room: "demo", server: "ws://x/",
                                        formats: formats, startedAt: RoomEventScript.startedAt, queueCapacity: 100_000)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 8000))
        #expect(manifest.state == .finished && recorder.outputError == nil)
    }

    @Test("the second run: new parts on the first run's timeline, Alice one participant, another 'Bob' a new name, one continued gap")
    func continuesAsTheNextPart() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        try await Self.firstRun(in: directory)
        // A part the first recorder made after its last manifest (as a kill -9 leaves it).
        #expect(FileManager.default.createFile(atPath: directory.file("Alice.part2.webm"), contents: Data([0x1A, 0x45])))
        let before = try RecordingContinuationTests.snapshot(directory)

        // 12 s later (t = 20 s): Alice is back under her id; someone else is called Bob now.
        var script = RoomEventScript()
        script.join("1", "Alice", atMs: 20_100)
        try script.audio("1", frequency: 440, fromMs: 20_100, toMs: 26_000, rtpBase: 900_000)
        script.video("1", frames: try RoomEventScript.encodeVideo(count: 170, width: 320, height: 240), fromMs: 20_100, rtpBase: 5_000_000)
        script.join("7", "Bob", atMs: 21_000, video: false)
        try script.audio("7", frequency: 880, fromMs: 21_000, toMs: 26_000, rtpBase: 7_000)
        script.add(.data(participantID: "7", payload: .text("after"), at: RoomEventScript.date(ms: 22_000)), atMs: 22_000)
        let recorder = try RoomRecorder(directory: RecordingDirectory(path: directory.path), room: "demo", server: "ws://x/",
                                        formats: Self.formats, startedAt: RoomEventScript.date(ms: 20_000), queueCapacity: 100_000,
                                        continuing: true)
        #expect(recorder.startedAt == RoomEventScript.startedAt && recorder.originMs == 20_000)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 26_000))
        #expect(recorder.outputError == nil, "\(String(describing: recorder.outputError))")

        // Nothing written before changed.
        let after = try RecordingContinuationTests.snapshot(directory)
        for (name, entry) in before where name != "manifest.json" {
            #expect(after[name]?.bytes == entry.bytes, "\(name) changed")
        }
        #expect(manifest.startedAt == RoomEventScript.startedAt && manifest.durationMs == 26_000 && manifest.state == .finished)
        #expect(manifest.participants.map(\.name) == ["Alice", "Bob", "Bob-2"])
        let alice = manifest.participants[0]
        #expect(alice.files.map(\.path) == ["Alice.webm", "Alice.wav", "Alice.opus", "Alice.part3.webm", "Alice.part2.wav", "Alice.part2.opus"])
        #expect(alice.leftMs == nil && alice.joinedMs == 0)
        #expect(manifest.participants[1].leftMs == 8000 && manifest.participants[1].files.allSatisfy { !$0.path.contains("part") })
        #expect(manifest.participants[2].files.map(\.path) == ["Bob-2.webm", "Bob-2.wav", "Bob-2.opus"])
        let continued = manifest.gaps.filter { $0.reason == "continued" }
        #expect(continued == [.init(startMs: 8000, endMs: 20_000, reason: "continued")])

        // This run's files sit on the first run's timeline, the WAVs from its start.
        let wav = try #require(alice.files.first { $0.path == "Alice.part2.wav" })
        #expect(wav.startMs == 20_000 && wav.endMs == 26_000)
        let webm = try #require(alice.files.first { $0.path == "Alice.part3.webm" })
        #expect(abs(webm.startMs - 20_100) <= 40, "\(webm.startMs)")
        #expect(manifest.files.map(\.path) == ["mix.wav", "data.jsonl", "mix.part2.wav", "data.part2.jsonl"])
        #expect(manifest.files.first { $0.path == "mix.part2.wav" }?.startMs == 20_000)
        let (samples, rate) = try soundFile(directory.file("Alice.part2.wav"))
        #expect(rate == 48_000 && samples.count == 6 * 48_000)
        // Alice's tone from 20.1 s: silence before it, the tone after.
        #expect(goertzel(samples[(48 * 500)..<(48 * 1500)], frequency: 440) > 1000 * goertzel(samples[0..<(48 * 80)], frequency: 440) + 1)
        let data = try String(contentsOfFile: directory.file("data.part2.jsonl"), encoding: .utf8)
        #expect(data == #"{"t_ms":22000,"from":"Bob-2","text":"after"}"# + "\n")

        for file in manifest.participants.flatMap(\.files) + manifest.files where file.format != "data" {
            let decode = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", directory.file(file.path), "-f", "null", "-"])
            #expect(decode.status == 0 && decode.errors.isEmpty, "\(file.path): \(decode.errors.prefix(300))")
        }
        // The manifest reads back; a third run would number on from here.
        let reread = try RecordingContinuation.load(directory: RecordingDirectory(path: directory.path), room: "demo",
                                                    startingAt: RoomEventScript.date(ms: 40_000))
        #expect(reread?.partNumbers.first(for: "Alice.webm") == 4 && reread?.earlierEndMs == 26_000)
    }

    @Test("a continuation whose join failed leaves the directory as the first run left it")
    func abandonPutsTheDirectoryBack() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        try await Self.firstRun(in: directory)
        let before = try RecordingContinuationTests.snapshot(directory)
        let recorder = try RoomRecorder(directory: RecordingDirectory(path: directory.path), room: "demo", server: "ws://x/",
                                        formats: Self.formats, startedAt: RoomEventScript.date(ms: 20_000), continuing: true)
        #expect(FileManager.default.fileExists(atPath: directory.file("mix.part2.wav")))
        await recorder.abandon(endedAt: RoomEventScript.date(ms: 20_500))
        let after = try RecordingContinuationTests.snapshot(directory)
        #expect(after.keys.sorted() == before.keys.sorted())
        for (name, entry) in before { #expect(after[name]?.bytes == entry.bytes, "\(name) changed") }
    }

    func soundFile(_ path: String) throws -> (samples: ArraySlice<Int16>, rate: Int) {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        return (try reader.readAll()[...], reader.info.sampleRate)
    }
}
