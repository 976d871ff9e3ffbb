import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// A participant whose video is H.264 is recorded into `<name>.mkv` (Matroska: H.264 is not in
/// the WebM subset) beside Opus, and the manifest says so; keyframes that came without their
/// parameter sets get them, and a size change is listed.
@Suite(.offThePool) struct RoomRecorderH264Tests {
    /// 150 frames (5 s at 30 fps) of libopenh264: IDRs at 0, 60 (sent without its SPS and PPS, as
    /// a sender that sends them once does) and 100, where the size changes to 176x144.
    static func accessUnits() throws -> [(bytes: [UInt8], isKeyframe: Bool, codec: MediaCodec)] {
        let encoder = try OpenH264Encoder(configuration: .init(bitrate: 400_000))
        var units: [(bytes: [UInt8], isKeyframe: Bool, codec: MediaCodec)] = []
        for index in 0..<150 {
            if index == 60 { encoder.forceKeyframe() }
            let (width, height) = index < 100 ? (320, 240) : (176, 144)
            let picture = try I420Frame.testPattern(width: width, height: height, frameIndex: index % 15)
            guard var frame = try encoder.encode(picture, timestampMs: Int64(index) * 33) else { continue }
            if index == 60 {
                let slices = AnnexBScanner.nalUnits(in: frame.bytes)
                    .filter { ![.sequenceParameterSet, .pictureParameterSet].contains(H264NALUnitType(header: frame.bytes[$0.lowerBound])) }
                frame.bytes = slices.flatMap { AnnexBScanner.startCode + frame.bytes[$0] }
            }
            units.append((frame.bytes, frame.isKeyframe, .h264))
        }
        return units
    }

    @Test func anH264ParticipantIsRecordedIntoMatroskaWithOpus() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let units = try Self.accessUnits()
        try #require(units.count >= 148 && units[60].isKeyframe)
        var script = RoomEventScript()
        script.join("1", "Ann", atMs: 0, videoCodec: .h264)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 5000)
        script.video("1", frames: units, fromMs: 0)
        let recorder = try RoomRecorderTests.makeRecorder(directory)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 5000))
        #expect(recorder.outputError == nil)

        #expect(!FileManager.default.fileExists(atPath: directory.file("Ann.webm")))
        let mkv = try await RoomRecorderTests.inspectWebM(directory.file("Ann.mkv"))
        #expect(mkv.streams == ["h264,320,240", "opus"], "\(mkv.streams)")
        #expect(mkv.decodeErrors == "", "\(mkv.decodeErrors)")
        #expect(mkv.mkvinfo == 0)
        let info = try await runTool("/usr/bin/mkvinfo", [directory.file("Ann.mkv")])
        #expect(info.output.contains("Document type: matroska") && info.output.contains("V_MPEG4/ISO/AVC"), "\(info.output.prefix(800))")
        // Every picture decodes, the IDR sent without parameter sets and both sizes included.
        let count = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                       "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", directory.file("Ann.mkv")])
        #expect(Int(count.output.trimmingCharacters(in: .whitespacesAndNewlines)) == units.count, "\(count.output)")

        let participant = try #require(manifest.participants.first)
        let file = try #require(participant.files.first { $0.format == "webm" })
        #expect(file.path == "Ann.mkv" && file.container == "matroska")
        #expect(file.tracks.map(\.codec) == ["opus", "h264"])
        #expect(file.tracks.last?.width == 320 && file.tracks.last?.height == 240)
        #expect(participant.resolutionChanges.map { "\($0.width)x\($0.height)" } == ["176x144"], "\(participant.resolutionChanges)")
        let json = try RoomRecorderTests.manifestJSON(directory)
        let files = (json["participants"] as? [[String: Any]])?.first?["files"] as? [[String: Any]] ?? []
        #expect(files.contains { $0["path"] as? String == "Ann.mkv" && $0["container"] as? String == "matroska" }, "\(files)")
    }

    /// VP8 for 2 s, then (republished) H.264 for 2 s, then VP8 again: three parts on one timeline,
    /// each decoding clean, the manifest listing them in order with their starts.
    /// A sender that ignores PLI and sends its first keyframe after the file's hold limit (Pion
    /// playing a file with an IDR every 3 s): the file goes audio-only, and the video starts the
    /// next part at that keyframe instead of being dropped. An H.264 IDR that comes without its
    /// parameter sets still opens it, with the sets the stream sent before.
    @Test(arguments: [MediaCodec.vp8, .h264])
    func videoAfterTheHoldLimitStartsTheNextPart(codec: MediaCodec) async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("1", "Ann", atMs: 0, videoCodec: codec)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 6000)
        if codec == .h264 {
            // Units 40..<100: non-IDR frames first, the first carrying the stream's SPS and PPS,
            // then the IDR of unit 60, which comes without them, 667 ms later.
            let units = try Self.accessUnits()
            let sets = AnnexBScanner.nalUnits(in: units[0].bytes)
                .filter { [.sequenceParameterSet, .pictureParameterSet].contains(H264NALUnitType(header: units[0].bytes[$0.lowerBound])) }
                .flatMap { AnnexBScanner.startCode + units[0].bytes[$0] }
            let first = (bytes: sets + units[40].bytes, isKeyframe: false, codec: MediaCodec.h264)
            script.video("1", frames: [first] + Array(units[41..<100]), fromMs: 2700)
        } else {
            // Joins between keyframes: its first keyframe comes 667 ms after its first frame.
            var frames = try RoomEventScript.encodeVideo(count: 90, width: 160, height: 120, keyframesAt: [0, 30])
            frames.removeFirst(10)
            script.video("1", frames: frames, fromMs: 2700)
        }
        let recorder = try RoomRecorderTests.makeRecorder(directory)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 6000))
        #expect(recorder.outputError == nil)

        let files = try #require(manifest.participants.first?.files.filter { $0.format == "webm" })
        let second = codec == .h264 ? "Ann.part2.mkv" : "Ann.part2.webm"
        #expect(files.map(\.path) == ["Ann.webm", second], "\(files.map(\.path))")
        #expect(files.map { $0.tracks.map(\.codec) } == [["opus"], ["opus", codec.name]], "\(files.map { $0.tracks.map(\.codec) })")
        guard files.count == 2 else { return }
        #expect(files[0].startMs < 100 && abs(files[1].startMs - 3367) < 150, "\(files.map(\.startMs))")
        let media = try await RoomRecorderTests.inspectWebM(directory.file(second))
        #expect(media.decodeErrors == "", "\(media.decodeErrors)")
        #expect(media.streams.contains { $0.hasPrefix(codec.name + ",") }, "\(media.streams)")
    }

    @Test func aCodecChangeContinuesInTheNextPart() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("1", "Ann", atMs: 0)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 6000)
        script.video("1", frames: try RoomEventScript.encodeVideo(count: 60, width: 160, height: 120), fromMs: 0)
        script.add(.trackAdded(participantID: "1", kind: .video, codec: .h264), atMs: 2000)
        script.video("1", frames: Array(try Self.accessUnits().prefix(60)), fromMs: 2000, rtpBase: 90_000_000)
        // Back to VP8 without an announcement: its keyframe starts the third part.
        script.video("1", frames: try RoomEventScript.encodeVideo(count: 60, width: 160, height: 120), fromMs: 4000, rtpBase: 5)
        let recorder = try RoomRecorderTests.makeRecorder(directory)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 6000))
        #expect(recorder.outputError == nil)

        let files = try #require(manifest.participants.first?.files.filter { $0.format == "webm" })
        #expect(files.map(\.path) == ["Ann.webm", "Ann.part2.mkv", "Ann.part3.webm"], "\(files.map(\.path))")
        #expect(files.map { $0.tracks.map(\.codec) } == [["opus", "vp8"], ["opus", "h264"], ["opus", "vp8"]])
        let starts = files.map(\.startMs)
        #expect(starts[0] < 100 && abs(starts[1] - 2000) < 150 && abs(starts[2] - 4000) < 150, "\(starts)")
        for (file, video) in zip(files, ["vp8,160,120", "h264,320,240", "vp8,160,120"]) {
            let media = try await RoomRecorderTests.inspectWebM(directory.file(file.path))
            #expect(media.streams == [video, "opus"].sorted(), "\(file.path): \(media.streams)")
            #expect(media.decodeErrors == "", "\(file.path): \(media.decodeErrors)")
            #expect(media.mkvinfo == 0, "\(file.path)")
            // Each part runs until the next begins: the parts tile the timeline.
            #expect(abs(file.startMs + (file.durationMs ?? 0) - (file == files.last ? 6000 : 2000 * Int64(files.firstIndex(of: file)! + 1))) < 150,
                    "\(file.path): \(file.startMs) + \(file.durationMs ?? 0)")
        }
    }

    @Test func vp8StaysInWebM() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("1", "Ann", atMs: 0)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 2000)
        script.video("1", frames: try RoomEventScript.encodeVideo(count: 60, width: 160, height: 120), fromMs: 0)
        let recorder = try RoomRecorderTests.makeRecorder(directory)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 2000))
        let file = try #require(manifest.participants.first?.files.first { $0.format == "webm" })
        #expect(file.path == "Ann.webm" && file.container == "webm")
        #expect(!FileManager.default.fileExists(atPath: directory.file("Ann.mkv")))
    }
}
