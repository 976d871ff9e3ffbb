import Agent
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Recorder

/// `--segment 5` on a 17 s recording: every file in 4 parts, each decoding clean on its own,
/// listed in the manifest with start/end that follow each other; the WebM cut at the first
/// keyframe past each boundary, asked for once per boundary.
@Suite(.offThePool) struct RoomRecorderSegmentTests {
    @Test("17 s at 5 s segments: 4 parts per file (WebM, WAV, Opus, mix), each clean, times continuous; one keyframe ask per cut")
    func fourPartsPerFile() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        // Alice sends video with keyframes a little after each boundary (5.17, 10.33, 15.33 s),
        // as a sender answering the recorder's PLI would; Bob is audio-only.
        let video = try RoomEventScript.encodeVideo(count: 510, width: 320, height: 240, keyframesAt: [0, 155, 310, 460])
        script.join("1", "Alice", atMs: 0)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 17_000)
        script.video("1", frames: video, fromMs: 0)
        script.join("2", "Bob", atMs: 2000, video: false)
        try script.audio("2", frequency: 660, fromMs: 2000, toMs: 17_000, rtpBase: 4_000_000_000)

        let recorder = try RoomRecorder(
            directory: RecordingDirectory(path: directory.path), room: "demo", server: "ws://10.77.0.2:8188/",
            formats: RecordingFormats([.webm, .wav, .ogg, .mix]), startedAt: RoomEventScript.startedAt,
            queueCapacity: 100_000, segments: RecordingSegments(seconds: 5))
        let asked = Mutex<[String]>([])
        recorder.setKeyframeRequester { id in asked.withLock { $0.append(id) } }
        for event in script.events { recorder.submit(event) }
        let final = await recorder.stop(endedAt: RoomEventScript.date(ms: 17_000))
        #expect(recorder.outputError == nil)
        #expect(final.state == .finished)
        // Alice's video waited for a keyframe at each of the three cuts; Bob has no video.
        #expect(asked.withLock { $0 } == ["1", "1", "1"])

        let participants = Dictionary(uniqueKeysWithValues: final.participants.map { ($0.name, $0.files) })
        let alice = try #require(participants["Alice"])
        let bob = try #require(participants["Bob"])
        func files(_ list: [RecordingManifest.File], _ format: String) -> [RecordingManifest.File] { list.filter { $0.format == format } }
        #expect(files(alice, "webm").map(\.path) == ["Alice.webm", "Alice.part2.webm", "Alice.part3.webm", "Alice.part4.webm"])
        #expect(files(bob, "webm").map(\.path) == ["Bob.webm", "Bob.part2.webm", "Bob.part3.webm", "Bob.part4.webm"])
        for list in [alice, bob] {
            let wavs = files(list, "wav")
            #expect(wavs.map(\.startMs) == [0, 5000, 10_000, 15_000])
            #expect(wavs.map(\.endMs) == [5000, 10_000, 15_000, 17_000])
            #expect(files(list, "ogg").count == 4)
        }
        let mix = final.files.filter { $0.format == "mix" }
        #expect(mix.map(\.path) == ["mix.wav", "mix.part2.wav", "mix.part3.wav", "mix.part4.wav"])
        #expect(mix.map(\.endMs) == [5000, 10_000, 15_000, 17_000])

        // WebM and Opus parts: each starts where the one before ended (within one frame), Alice's
        // video parts at their keyframes, Bob's at the boundary's first packet.
        for (name, list) in [("Alice", alice), ("Bob", bob)] {
            for format in ["webm", "ogg"] {
                let parts = files(list, format)
                for (earlier, later) in zip(parts, parts.dropFirst()) {
                    let end = try #require(earlier.endMs)
                    #expect(abs(later.startMs - end) <= 40, "\(name) \(format): \(earlier.path) ends \(end), \(later.path) starts \(later.startMs)")
                }
            }
        }
        #expect(files(alice, "webm").dropFirst().map { $0.startMs / 100 } == [51, 103, 153])
        #expect(files(bob, "webm").dropFirst().map(\.startMs) == [5000, 10_000, 15_000])

        // Every part is a file of its own that decodes without an error.
        for file in alice + bob + mix {
            let path = directory.file(file.path)
            #expect(FileManager.default.fileExists(atPath: path), "\(file.path) missing")
            let decode = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"])
            #expect(decode.status == 0 && decode.errors.isEmpty, "\(file.path): \(decode.errors.prefix(300))")
        }
        let aliceVideo = try await RoomRecorderTests.inspectWebM(directory.file("Alice.part3.webm"))
        #expect(aliceVideo.streams == ["opus", "vp8,320,240"])
    }
}
