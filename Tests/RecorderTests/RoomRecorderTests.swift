import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

@Suite(.offThePool) struct RoomRecorderTests {
    static let allFormats = RecordingFormats([.webm, .wav, .ogg, .mix, .data])

    static func makeRecorder(_ directory: TestDirectory, formats: RecordingFormats = allFormats,
                             queueCapacity: Int = 100_000) throws -> RoomRecorder {
        try RoomRecorder(directory: RecordingDirectory(path: directory.path), room: "demo", server: "ws://10.77.0.2:8188/",
                         formats: formats, startedAt: RoomEventScript.startedAt, queueCapacity: queueCapacity)
    }

    static func manifestJSON(_ directory: TestDirectory) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.file("manifest.json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func missing(_ keys: Set<String>, in object: Any?) throws -> Set<String> {
        let dictionary = try #require(object as? [String: Any])
        return keys.subtracting(dictionary.keys)
    }

    /// ffprobe's streams as "codec[,width,height]" lines, ffmpeg's decode errors, mkvinfo's status.
    static func inspectWebM(_ path: String) async throws -> (streams: [String], decodeErrors: String, mkvinfo: Int32) {
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height",
                                                 "-of", "csv=p=0", path])
        let decode = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"])
        let info = try await runTool("/usr/bin/mkvinfo", [path])
        let streams = probe.output.split(separator: "\n").map { String($0).trimmingCharacters(in: .init(charactersIn: ",")) }
        return (streams.sorted(), decode.errors + (decode.status == 0 ? "" : "exit \(decode.status)"), info.status)
    }

    @Test func recordsTwoParticipantsOnOneTimeline() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        let video = try RoomEventScript.encodeVideo(count: 300)
        script.join("1", "Alice A.", atMs: 0)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 10_000)
        // Alice's video arrives 70 ms behind her audio: the muxer must restore time order.
        script.video("1", frames: video, fromMs: 0, arrivalDelayMs: 70)
        script.join("2", "Bob", atMs: 3000)
        try script.audio("2", frequency: 660, fromMs: 3000, toMs: 10_000, rtpBase: 4_000_000_000)
        script.video("2", frames: Array(video.prefix(210)), fromMs: 3000, rtpBase: 1 << 33)
        script.add(.data(participantID: "1", payload: .text("hello \"room\""), at: RoomEventScript.date(ms: 1500)), atMs: 1500)
        script.add(.data(participantID: "2", payload: .binary([0, 1, 2, 255]), at: RoomEventScript.date(ms: 5000)), atMs: 5000)
        script.add(.data(participantID: nil, payload: .text("who"), at: RoomEventScript.date(ms: 6000)), atMs: 6000)
        var statistics = ReceiveStreamStatistics()
        statistics.packets = 500
        statistics.lost = 3
        statistics.nacks = 2
        statistics.plis = 1
        script.add(.statistics(participantID: "1", kind: .audio, statistics), atMs: 9000)

        let recorder = try Self.makeRecorder(directory)
        // The first manifest is there before any event.
        #expect(try Self.manifestJSON(directory)["state"] as? String == "recording")
        for event in script.events { recorder.submit(event) }
        let final = await recorder.stop(endedAt: RoomEventScript.date(ms: 10_000))
        #expect(recorder.outputError == nil)
        #expect(final.state == .finished)
        #expect(final.durationMs == 10_000)

        // WebM: opus + vp8 640x480, decodes without a single error.
        for name in ["Alice_A_", "Bob"] {
            let webm = try await Self.inspectWebM(directory.file("\(name).webm"))
            #expect(webm.streams == ["opus", "vp8,640,480"], "\(name)")
            #expect(webm.decodeErrors == "", "\(name)")
            #expect(webm.mkvinfo == 0, "\(name)")
        }

        // Blocks in time order across tracks, at their wall times from the file's start.
        let packets = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts", "-of", "csv=p=0",
                                                   directory.file("Alice_A_.webm")])
        let rows = packets.output.split(separator: "\n").map { $0.split(separator: ",").compactMap { Int($0) } }
        #expect(rows.count == 800)
        let times = rows.compactMap(\.last)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        let videoTimes = rows.filter { $0.first == 1 }.compactMap(\.last)
        #expect(videoTimes.prefix(4) == [0, 33, 66, 100])
        #expect(videoTimes.last == 9966)

        // WAVs: exactly 10 s, each its own tone, Bob silent until he joined.
        let alice = try SoundFileReader(path: directory.file("Alice_A_.wav")).readAll()
        let bob = try SoundFileReader(path: directory.file("Bob.wav")).readAll()
        let mix = try SoundFileReader(path: directory.file("mix.wav")).readAll()
        #expect(alice.count == 480_000)
        #expect(bob.count == 480_000)
        #expect(mix.count == 480_000)
        let second = 240_000..<288_000
        #expect(goertzel(alice[second], frequency: 440) > 100 * goertzel(alice[second], frequency: 660))
        #expect(goertzel(bob[second], frequency: 660) > 100 * goertzel(bob[second], frequency: 440))
        #expect(bob[0..<144_000].allSatisfy { $0 == 0 })
        let bobStart = try #require(bob.firstIndex { $0 != 0 })
        #expect((144_000...144_000 + 960).contains(bobStart), "Bob's audio starts at sample \(bobStart)")
        // The mix holds Alice alone at first, then both.
        let early = 48_000..<96_000
        #expect(goertzel(mix[early], frequency: 440) > 100 * goertzel(mix[early], frequency: 660))
        let both = (goertzel(mix[second], frequency: 440), goertzel(mix[second], frequency: 660))
        #expect(both.0 > both.1 / 2 && both.1 > both.0 / 2, "440: \(both.0), 660: \(both.1)")

        // data.jsonl
        let lines = try String(contentsOfFile: directory.file("data.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines == [#"{"t_ms":1500,"from":"Alice_A_","text":"hello \"room\""}"#,
                          #"{"t_ms":5000,"from":"Bob","base64":"AAEC/w=="}"#,
                          #"{"t_ms":6000,"from":"unknown","text":"who"}"#])

        // Ogg/Opus: 500 and 350 packets of 20 ms.
        let aliceOpus = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                     directory.file("Alice_A_.opus")])
        #expect(abs((Double(aliceOpus.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - 10) < 0.05)

        // Manifest: every contract key, sensible start times and stats.
        let root = try Self.manifestJSON(directory)
        #expect(try Self.missing(["version", "room", "server", "started_at", "ended_at", "participants"], in: root) == [])
        #expect(root["state"] as? String == "finished")
        #expect(root["ended_at"] as? String == "2027-01-15T08:00:10.000Z")
        #expect(root["events_dropped"] as? Int == 0)
        let participants = try #require(root["participants"] as? [[String: Any]])
        #expect(participants.map { $0["name"] as? String } == ["Alice_A_", "Bob"])
        #expect(participants.map { $0["joined_ms"] as? Int } == [0, 3000])
        var webmStarts: [Int?] = []
        for participant in participants {
            #expect(try Self.missing(["id", "display", "name", "joined_ms", "left_ms", "files", "stats"], in: participant) == [])
            #expect(participant["left_ms"] is NSNull)
            let stats = try #require(participant["stats"] as? [String: [String: Any]])
            for kind in ["audio", "video"] {
                #expect(try Self.missing(["packets", "lost", "recovered", "nacks", "plis", "keyframes", "first_frame_ms"],
                                         in: stats[kind]) == [], "\(kind)")
            }
            #expect(stats["video"]?["keyframes"] as? Int == 1)
            let files = try #require(participant["files"] as? [[String: Any]])
            #expect(files.map { $0["format"] as? String } == ["webm", "wav", "ogg"])
            for file in files {
                #expect(try Self.missing(["path", "format", "start_ms", "tracks"], in: file) == [])
                for track in try #require(file["tracks"] as? [[String: Any]]) {
                    #expect(try Self.missing(["kind", "codec"], in: track) == [])
                    if track["kind"] as? String == "video" {
                        #expect(track["width"] as? Int == 640 && track["height"] as? Int == 480)
                    }
                }
            }
            webmStarts.append(files[0]["start_ms"] as? Int)
            #expect(files[1]["start_ms"] as? Int == 0)
        }
        #expect(webmStarts == [0, 3000])
        let aliceStats = try #require(participants[0]["stats"] as? [String: [String: Any]])
        #expect(aliceStats["audio"]?["packets"] as? Int == 500)
        #expect(aliceStats["audio"]?["lost"] as? Int == 3)
        #expect(aliceStats["audio"]?["nacks"] as? Int == 2)
        #expect(aliceStats["audio"]?["first_frame_ms"] as? Int == 0)
        let bobStats = try #require(participants[1]["stats"] as? [String: [String: Any]])
        #expect(bobStats["audio"]?["first_frame_ms"] as? Int == 3000)
        #expect(bobStats["video"]?["first_frame_ms"] as? Int == 3000)
        let roomFiles = try #require(root["files"] as? [[String: Any]])
        #expect(roomFiles.map { $0["path"] as? String } == ["mix.wav", "data.jsonl"])
    }

    /// Seen in the lab on a loaded machine: an aiortc publisher's packets reached us 250-300 ms
    /// after the sender-report time they map to, while a Chromium one's came at once, and a
    /// 200 ms mixing budget left that publisher out of mix.wav for seconds at a time (all of it,
    /// when it joined late), though their own WAV was whole. A path that slow is common on real
    /// networks, so the mix waits as long as the WebM's hold.
    @Test func audioArrivingSecondsBehindAnotherParticipantsIsStillMixed() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("1", "Alice", atMs: 0, video: false)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 6000, senderReportFrom: 0)
        script.join("2", "Bob", atMs: 1000, video: false)
        try script.audio("2", frequency: 660, fromMs: 1000, toMs: 6000, arrivalDelayMs: 1200, senderReportFrom: 0)
        let recorder = try Self.makeRecorder(directory, formats: RecordingFormats([.wav, .mix]))
        for event in script.events { recorder.submit(event) }
        await recorder.stop(endedAt: RoomEventScript.date(ms: 6000))
        #expect(recorder.outputError == nil)

        let bob = try SoundFileReader(path: directory.file("Bob.wav")).readAll()
        let mix = try SoundFileReader(path: directory.file("mix.wav")).readAll()
        let both = 96_000..<240_000
        #expect(goertzel(bob[both], frequency: 660) > 100 * goertzel(bob[both], frequency: 440), "Bob's own WAV")
        let inMix = (goertzel(mix[both], frequency: 440), goertzel(mix[both], frequency: 660))
        #expect(inMix.1 > inMix.0 / 2 && inMix.0 > inMix.1 / 2, "mix: 440 Hz \(inMix.0), 660 Hz \(inMix.1)")
    }

    @Test func aRejoinGetsNewFilesNamedDash2() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        let video = try RoomEventScript.encodeVideo(count: 30, width: 320, height: 240)
        script.join("7", "Carol", atMs: 0)
        try script.audio("7", frequency: 440, fromMs: 0, toMs: 1000)
        script.video("7", frames: video, fromMs: 0)
        script.leave("7", atMs: 1500)
        script.join("7", "Carol", atMs: 2000)
        try script.audio("7", frequency: 660, fromMs: 2000, toMs: 3000)
        script.video("7", frames: video, fromMs: 2000)

        let recorder = try Self.makeRecorder(directory, formats: RecordingFormats([.webm, .wav]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 4000))
        #expect(manifest.participants.map(\.name) == ["Carol", "Carol-2"])
        #expect(manifest.participants.map(\.leftMs) == [1500, nil])
        #expect(manifest.participants.map(\.joinedMs) == [0, 2000])
        #expect(manifest.participants[1].files.map(\.path) == ["Carol-2.webm", "Carol-2.wav"])
        #expect(manifest.participants[1].files.first?.startMs == 2000)
        for name in ["Carol", "Carol-2"] {
            let webm = try await Self.inspectWebM(directory.file("\(name).webm"))
            #expect(webm.streams == ["opus", "vp8,320,240"], "\(name)")
            #expect(webm.decodeErrors == "", "\(name)")
            // Both WAVs span the whole recording; the first is silent after its owner left.
            let wav = try SoundFileReader(path: directory.file("\(name).wav")).readAll()
            #expect(wav.count == 192_000, "\(name)")
        }
        let first = try SoundFileReader(path: directory.file("Carol.wav")).readAll()
        #expect(first[49_000..<192_000].allSatisfy { $0 == 0 })
        #expect(goertzel(first[9600..<38_400], frequency: 440) > 1_000_000)
    }

    @Test func aResolutionChangeStaysInOneFileThatDecodesCleanly() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let encoder = try VPXEncoder(configuration: .init(codec: .vp8, bitrate: 600_000))
        let large = try RoomEventScript.encodeVideo(count: 30, encoder: encoder)
        let small = try RoomEventScript.encodeVideo(count: 30, width: 320, height: 240, firstIndex: 30, encoder: encoder)
        #expect(small.first?.isKeyframe == true)
        var script = RoomEventScript()
        script.join("9", "Dan", atMs: 0)
        try script.audio("9", frequency: 440, fromMs: 0, toMs: 2000)
        script.video("9", frames: large + small, fromMs: 0)

        let recorder = try Self.makeRecorder(directory, formats: RecordingFormats([.webm]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 2000))
        let dan = try #require(manifest.participants.first)
        #expect(dan.resolutionChanges == [.init(tMs: 1000, width: 320, height: 240)])
        #expect(dan.files.map(\.path) == ["Dan.webm"])
        let webm = try await Self.inspectWebM(directory.file("Dan.webm"))
        #expect(webm.decodeErrors == "")
        #expect(webm.mkvinfo == 0)
        let sizes = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=width,height",
                                                 "-of", "csv=p=0", directory.file("Dan.webm")])
        let lines = sizes.output.split(separator: "\n")
        #expect(lines.count == 60)
        #expect(lines.first == "640,480" && lines.last == "320,240")
    }

    @Test func videoBeforeTheFirstKeyframeIsDroppedAndAudioHeldForIt() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let video = try RoomEventScript.encodeVideo(count: 40, keyframesAt: [0, 10])
        #expect(video.map(\.isKeyframe).enumerated().filter(\.element).map(\.offset) == [0, 10])
        var script = RoomEventScript()
        script.join("3", "Eve", atMs: 0)
        try script.audio("3", frequency: 440, fromMs: 0, toMs: 2000)
        // The first keyframe was lost: frames 1-9 cannot be decoded; frame 10 is the next keyframe.
        script.video("3", frames: Array(video.dropFirst()), fromMs: 1000.0 / 30)
        let recorder = try Self.makeRecorder(directory, formats: RecordingFormats([.webm]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 2000))
        let file = try #require(manifest.participants.first?.files.first)
        #expect(file.startMs == 0)  // held audio from t=0 went in ahead of the keyframe
        #expect(file.tracks.map(\.kind) == [.audio, .video])
        let webm = try await Self.inspectWebM(directory.file("Eve.webm"))
        #expect(webm.streams == ["opus", "vp8,640,480"])
        #expect(webm.decodeErrors == "")
        let frames = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-count_frames", "-show_entries",
                                                  "stream=nb_read_frames", "-of", "csv=p=0", directory.file("Eve.webm")])
        #expect(frames.output.trimmingCharacters(in: .whitespacesAndNewlines) == "30")
    }

    @Test func noKeyframeInTimeMakesAnAudioOnlyFile() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("4", "Fay", atMs: 0)  // announces video, never sends it
        try script.audio("4", frequency: 440, fromMs: 0, toMs: 3000)
        let recorder = try Self.makeRecorder(directory, formats: RecordingFormats([.webm]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 3000))
        let file = try #require(manifest.participants.first?.files.first)
        #expect(file.tracks.map(\.kind) == [.audio])
        let webm = try await Self.inspectWebM(directory.file("Fay.webm"))
        #expect(webm.streams == ["opus"])
        #expect(webm.decodeErrors == "")
        let duration = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                    directory.file("Fay.webm")])
        #expect(abs((Double(duration.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - 3) < 0.05)
    }

    @Test func aFullQueueDropsAndCountsInsteadOfBlocking() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("5", "Gil", atMs: 0, video: false)
        try script.audio("5", frequency: 440, fromMs: 0, toMs: 400)  // 20 frames
        let recorder = try Self.makeRecorder(directory, formats: RecordingFormats([.wav]), queueCapacity: 10)
        recorder.suspendWriter()
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for event in script.events { recorder.submit(event) }
        }
        // join + trackAdded take 2 slots (never dropped), 8 frames fit, 12 are dropped.
        #expect(recorder.eventsDropped == 12)
        #expect(recorder.progress.eventsQueued == 10)
        #expect(elapsed < .seconds(1))
        recorder.resumeWriter()
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 400))
        #expect(manifest.eventsDropped == 12)
        let root = try Self.manifestJSON(directory)
        #expect(root["events_dropped"] as? Int == 12)
        // The 8 frames that made it are at their own times: 160 ms of tone, then silence.
        let wav = try SoundFileReader(path: directory.file("Gil.wav")).readAll()
        #expect(wav.count == 19_200)
        #expect(wav[7680..<19_200].allSatisfy { $0 == 0 })
        #expect(recorder.progress.participantsRecorded == 1)
    }

    @Test func aFileThatCannotBeWrittenIsRecordedAndTheRestGoesOn() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        // Writing through this link fails with ENOSPC, as on a full disk.
        try FileManager.default.createSymbolicLink(atPath: directory.file("Hal.webm"), withDestinationPath: "/dev/full")
        var script = RoomEventScript()
        script.join("6", "Hal", atMs: 0, video: false)
        try script.audio("6", frequency: 440, fromMs: 0, toMs: 1000)
        let recorder = try Self.makeRecorder(directory, formats: RecordingFormats([.webm, .wav]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 1000))
        let error = try #require(recorder.outputError)
        #expect(error.description.contains("No space left on device"), "\(error)")
        #expect(manifest.state == .failed)
        let files = try #require(manifest.participants.first?.files)
        #expect(files.map(\.path) == ["Hal.webm", "Hal.wav"])
        #expect(files.first?.error?.contains("No space left on device") == true)
        #expect(files.last?.error == nil)
        #expect(try SoundFileReader(path: directory.file("Hal.wav")).readAll().count == 48_000)
    }

    @Test func vp9KeyframeHeaderGivesTheSize() throws {
        let encoder = try VPXEncoder(configuration: .init(codec: .vp9, bitrate: 400_000))
        let frames = try encoder.encode(I420Frame.testPattern(width: 352, height: 288, frameIndex: 0), pts: 0)
        let keyframe = try #require(frames.first)
        #expect(keyframe.isKeyframe)
        let size = try #require(VP9KeyframeHeader.keyframeSize(of: keyframe.data))
        #expect(size.width == 352 && size.height == 288)
        #expect(VP9KeyframeHeader.keyframeSize(of: Array(keyframe.data.prefix(4))) == nil)
        #expect(VP9KeyframeHeader.keyframeSize(of: []) == nil)
    }

    @Test func vp9IsMuxedWithItsKeyframeSize() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("8", "Ivy", atMs: 0, videoCodec: .vp9)
        try script.audio("8", frequency: 440, fromMs: 0, toMs: 1000)
        script.video("8", frames: try RoomEventScript.encodeVideo(count: 30, width: 320, height: 240, codec: .vp9), fromMs: 0)
        let recorder = try Self.makeRecorder(directory, formats: RecordingFormats([.webm]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 1000))
        let file = try #require(manifest.participants.first?.files.first)
        #expect(file.tracks.map(\.codec) == ["opus", "vp9"])
        let webm = try await Self.inspectWebM(directory.file("Ivy.webm"))
        #expect(webm.streams == ["opus", "vp9,320,240"])
        #expect(webm.decodeErrors == "")
    }

    @Test func theManifestIsRefreshedWhileRecording() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let recorder = try RoomRecorder(
            directory: RecordingDirectory(path: directory.path), room: "demo", server: "ws://x/",
            formats: RecordingFormats([.wav]), startedAt: RoomEventScript.startedAt, manifestRefresh: .milliseconds(100))
        var script = RoomEventScript()
        script.join("1", "Jo", atMs: 0, video: false)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 1000)
        for event in script.events { recorder.submit(event) }
        // The timer ticks every second; poll for the refreshed manifest with a deadline.
        func participants() -> [[String: Any]] {
            (try? Self.manifestJSON(directory)["participants"] as? [[String: Any]]) ?? []
        }
        try? await pollUntil(timeout: .seconds(10), "a refreshed manifest") {
            !participants().isEmpty && recorder.progress.bytesWritten > 0
        }
        let participants = participants()
        #expect(participants.first?["name"] as? String == "Jo")
        #expect(try Self.manifestJSON(directory)["state"] as? String == "recording")
        let progress = recorder.progress
        #expect(progress.participantsPresent == 1)
        #expect(progress.mediaMs == 980)
        #expect(progress.bytesWritten >= 96_000)  // 1 s of 16-bit mono
        await recorder.stop(endedAt: RoomEventScript.date(ms: 1000))
        #expect(try Self.manifestJSON(directory)["state"] as? String == "finished")
    }

    @Test func aVideoOnlyParticipantGetsAVideoOnlyFileAndASilentWAV() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.add(.participantJoined(id: "10", display: "Kim", at: RoomEventScript.date(ms: 500)), atMs: 500)
        script.add(.trackAdded(participantID: "10", kind: .video, codec: .vp8), atMs: 500)
        script.video("10", frames: try RoomEventScript.encodeVideo(count: 30, width: 320, height: 240), fromMs: 500)
        let recorder = try Self.makeRecorder(directory, formats: RecordingFormats([.webm, .wav]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 2000))
        let files = try #require(manifest.participants.first?.files)
        #expect(files.map(\.path) == ["Kim.webm", "Kim.wav"])
        #expect(files.first?.startMs == 500)
        #expect(files.first?.tracks.map(\.kind) == [.video])
        let webm = try await Self.inspectWebM(directory.file("Kim.webm"))
        #expect(webm.streams == ["vp8,320,240"])
        #expect(webm.decodeErrors == "")
        let wav = try SoundFileReader(path: directory.file("Kim.wav")).readAll()
        #expect(wav.count == 96_000 && wav.allSatisfy { $0 == 0 })
    }
}
