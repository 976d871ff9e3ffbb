import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// The recorder across its own reconnects: one directory, one timeline, the gap in the manifest.
@Suite(.offThePool) struct RoomRecorderReconnectTests {
    static func state(_ state: ConnectionState, atMs ms: Double) -> RoomEvent {
        .connectionState(state, at: RoomEventScript.date(ms: Int64(ms)))
    }

    /// First sample at or after `from` that is not silence.
    static func firstSound(_ samples: [Int16], from: Int) -> Int? {
        samples[from...].firstIndex { $0 != 0 }
    }

    @Test("a Janus restart: the gap is silence, alice comes back under a new id into the same files, bob is gone")
    func janusRestart() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("1", "alice", atMs: 0)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 4000)
        script.video("1", frames: try RoomEventScript.encodeVideo(count: 120), fromMs: 0)
        script.join("2", "bob", atMs: 0, video: false)
        try script.audio("2", frequency: 660, fromMs: 0, toMs: 4000, rtpBase: 900_000)
        script.add(Self.state(.reconnecting(attempt: 1), atMs: 4000), atMs: 4000)
        script.add(Self.state(.reconnecting(attempt: 2), atMs: 5500), atMs: 5500)
        // After the rejoin the audience reports who is gone, as of the drop, then connected.
        script.add(.participantLeft(id: "1", at: RoomEventScript.date(ms: 4000)), atMs: 7000)
        script.add(.participantLeft(id: "2", at: RoomEventScript.date(ms: 4000)), atMs: 7000)
        script.add(Self.state(.connected, atMs: 7000), atMs: 7000)
        // alice's publisher comes back with a new id. Her RTP clock runs on as if there had been
        // no gap: placed by RTP she would land 4 s early, inside the 5 s re-anchor threshold.
        script.join("7", "alice", atMs: 8000)
        try script.audio("7", frequency: 440, fromMs: 8000, toMs: 12_000, rtpBase: 12_345 + 200 * 960)
        // Her new video starts with delta frames: they must wait for the keyframe at index 15.
        let video = try RoomEventScript.encodeVideo(count: 120, keyframesAt: [0, 15])
        script.video("7", frames: Array(video.dropFirst()), fromMs: 8000, rtpBase: 5_000_000)

        let recorder = try RoomRecorderTests.makeRecorder(directory)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 12_000))
        #expect(manifest.state == .finished)
        #expect(manifest.gaps == [.init(startMs: 4000, endMs: 7000, reason: "reconnect", attempts: 2)])
        #expect(manifest.participants.map(\.name) == ["alice", "bob"])
        let alice = try #require(manifest.participants.first)
        #expect(alice.ids == ["1", "7"])
        #expect(alice.leftMs == nil)
        #expect(manifest.participants.last?.leftMs == 4000)
        #expect(alice.gaps.contains { $0.reason == "reconnect" && $0.startMs == 4000 && $0.endMs == 8000 }, "\(alice.gaps)")

        // alice.wav: 12 s, silence across the gap, her tone again from 8.0 s.
        let wav = try SoundFileReader(path: directory.file("alice.wav")).readAll()
        #expect(wav.count == 576_000)
        #expect(wav[196_000..<383_000].allSatisfy { $0 == 0 })
        let back = try #require(Self.firstSound(wav, from: 196_000))
        #expect((384_000...384_000 + 960).contains(back), "alice is back at sample \(back)")
        let after = wav[432_000..<528_000]
        #expect(goertzel(after, frequency: 440) > 100 * goertzel(after, frequency: 660))
        let bobWAV = try SoundFileReader(path: directory.file("bob.wav")).readAll()
        #expect(bobWAV.count == 576_000)
        #expect(bobWAV[196_000...].allSatisfy { $0 == 0 })

        // alice.webm: one file, decodes cleanly, block times jump over the gap, video resumes at
        // a keyframe.
        let webm = try await RoomRecorderTests.inspectWebM(directory.file("alice.webm"))
        #expect(webm.streams == ["opus", "vp8,640,480"])
        #expect(webm.decodeErrors == "")
        #expect(webm.mkvinfo == 0)
        let packets = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts,flags",
                                                   "-of", "csv=p=0", directory.file("alice.webm")])
        let rows = packets.output.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let audioTimes = rows.filter { $0.first == "0" }.compactMap { Int($0[1]) }
        #expect(!audioTimes.contains { (4000..<7990).contains($0) })
        #expect(audioTimes.contains { (7990...8020).contains($0) })
        let videoAfter = rows.filter { $0.first == "1" && (Int($0[1]) ?? 0) >= 7000 }
        #expect(videoAfter.first?[2].hasPrefix("K") == true, "\(videoAfter.prefix(2))")
        #expect(videoAfter.count == 105, "\(videoAfter.count) video frames after the gap")
        #expect(!FileManager.default.fileExists(atPath: directory.file("alice-2.webm")))

        // alice.opus: the gap is 20 ms silence frames, so the file keeps the 12 s timeline and
        // her tone sits at 8 s again.
        let opus = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", directory.file("alice.opus")])
        let opusSeconds = Double(opus.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(abs(opusSeconds - 12) < 0.05, "alice.opus lasts \(opusSeconds) s")
        let decoded = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", directory.file("alice.opus"),
                                                  "-f", "s16le", "-ac", "1", "-ar", "48000", directory.file("alice.raw")])
        #expect(decoded.status == 0 && decoded.errors == "")
        let raw = try Data(contentsOf: URL(fileURLWithPath: directory.file("alice.raw")))
        let pcm = raw.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(pcm.count > 570_000)
        if pcm.count > 528_000 {
            let gap = pcm[240_000..<336_000]
            #expect(gap.map { abs(Int($0)) }.max() ?? 0 < 100, "silence across the gap")
            let back = pcm[432_000..<528_000]
            #expect(goertzel(back, frequency: 440) > 100 * goertzel(back, frequency: 660))
        }
    }

    @Test("a signaling drop: the same ids go on, placed by wall time after the gap")
    func signalingDrop() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("1", "alice", atMs: 0, video: false)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 4000)
        script.add(Self.state(.reconnecting(attempt: 1), atMs: 4000), atMs: 4000)
        script.add(Self.state(.connected, atMs: 5000), atMs: 5000)
        try script.audio("1", frequency: 440, fromMs: 6000, toMs: 9000, rtpBase: 12_345 + 200 * 960)
        var statistics = ReceiveStreamStatistics()
        statistics.packets = 200
        script.add(.statistics(participantID: "1", kind: .audio, statistics), atMs: 3990)
        statistics.packets = 150  // a new receive stream after the reconnect
        script.add(.statistics(participantID: "1", kind: .audio, statistics), atMs: 8990)

        let recorder = try RoomRecorderTests.makeRecorder(directory, formats: RecordingFormats([.wav, .webm]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 9000))
        #expect(manifest.gaps == [.init(startMs: 4000, endMs: 5000, attempts: 1)])
        #expect(manifest.participants.map(\.ids) == [["1"]])
        #expect(manifest.participants.first?.stats.audio.packets == 350)
        let wav = try SoundFileReader(path: directory.file("alice.wav")).readAll()
        #expect(wav.count == 432_000)
        let back = try #require(Self.firstSound(wav, from: 196_000))
        #expect((288_000...288_000 + 960).contains(back), "alice is back at sample \(back)")
        let webm = try await RoomRecorderTests.inspectWebM(directory.file("alice.webm"))
        #expect(webm.decodeErrors == "")
    }

    @Test("back after the rejoin window: a new participant with a rejoin name")
    func lateReturnIsARejoin() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("1", "alice", atMs: 0, video: false)
        script.add(Self.state(.reconnecting(attempt: 1), atMs: 1000), atMs: 1000)
        script.add(.participantLeft(id: "1", at: RoomEventScript.date(ms: 1000)), atMs: 2000)
        script.add(Self.state(.connected, atMs: 2000), atMs: 2000)
        script.join("9", "alice", atMs: 62_500, video: false)
        let recorder = try RoomRecorderTests.makeRecorder(directory, formats: RecordingFormats([.wav]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 63_000))
        #expect(manifest.participants.map(\.name) == ["alice", "alice-2"])
        #expect(manifest.participants.map(\.leftMs) == [1000, nil])
    }

    @Test("retries given up: the recording ends failed, its gap closed, every WAV full length")
    func givenUp() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("1", "alice", atMs: 0, video: false)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 2000)
        script.add(Self.state(.reconnecting(attempt: 1), atMs: 2000), atMs: 2000)
        script.add(Self.state(.reconnecting(attempt: 5), atMs: 4000), atMs: 4000)
        script.add(Self.state(.disconnected(reason: .gaveUp("no route to host")), atMs: 5000), atMs: 5000)
        let recorder = try RoomRecorderTests.makeRecorder(directory, formats: RecordingFormats([.wav]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 5000))
        #expect(manifest.state == .failed)
        #expect(manifest.error == "connection lost: no route to host")
        #expect(recorder.connectionError == manifest.error)
        #expect(manifest.gaps == [.init(startMs: 2000, endMs: 5000, attempts: 5)])
        #expect(try SoundFileReader(path: directory.file("alice.wav")).readAll().count == 240_000)
        let json = try RoomRecorderTests.manifestJSON(directory)
        let gaps = try #require(json["gaps"] as? [[String: Any]])
        #expect(gaps.first?["start_ms"] as? Int == 2000 && gaps.first?["end_ms"] as? Int == 5000)
        #expect(json["state"] as? String == "failed")
    }
}
