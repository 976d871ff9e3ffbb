import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// room.webm end to end, through ``RoomRecorder``: participants send VP8 of known solid colours
/// and Opus tones; room.webm is decoded back by ffmpeg and each tile's mean colour is compared
/// with its participant's, at times when the roster differs.
@Suite(.offThePool) struct RoomCompositorTests {
    typealias Colour = (y: UInt8, u: UInt8, v: UInt8)
    static let red: Colour = (81, 90, 240)
    static let blue: Colour = (41, 240, 110)
    static let sourceWidth = 160, sourceHeight = 120

    /// `count` frames of one colour at 30 fps, VP8.
    static func solidVideo(_ colour: Colour, count: Int) throws -> [VPXEncodedFrame] {
        let encoder = try VPXEncoder(configuration: .init(codec: .vp8, bitrate: 200_000))
        let picture = try I420Frame.solid(width: sourceWidth, height: sourceHeight, y: colour.y, u: colour.u, v: colour.v)
        return try (0..<count).flatMap { try encoder.encode(picture, pts: Int64($0) * 3000) }
    }

    static func record(_ script: RoomEventScript, endMs: Int64, settings: CompositeSettings,
                       formats: RecordingFormats = RecordingFormats([.composite])) async throws -> (TestDirectory, RecordingManifest) {
        let directory = try TestDirectory()
        let recorder = try RoomRecorder(directory: RecordingDirectory(path: directory.path), room: "demo", server: "ws://10.77.0.2:8188/",
                                        formats: formats, startedAt: RoomEventScript.startedAt, queueCapacity: 100_000, composite: settings)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: endMs))
        #expect(recorder.outputError == nil)
        return (directory, manifest)
    }

    /// Every decoded picture of room.webm with its time in ms.
    static func decodedFrames(_ path: String, width: Int, height: Int) async throws -> [(ms: Double, frame: I420Frame)] {
        let raw = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:v", "-f", "rawvideo",
                                                        "-pix_fmt", "yuv420p", "-fps_mode", "passthrough", "-"])
        let times = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                           "frame=best_effort_timestamp_time", "-of", "csv=p=0", path])
            .output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .init(charactersIn: ", "))) }
        let pictures = try I420Frame.frames(rawYUV: [UInt8](raw.data), width: width, height: height)
        try #require(pictures.count == times.count, "\(raw.data.count) bytes, \(pictures.count) pictures for \(times.count) frame times")
        return zip(times, pictures).map { ($0 * 1000, $1) }
    }

    static func frame(nearMs ms: Double, in frames: [(ms: Double, frame: I420Frame)]) throws -> I420Frame {
        try #require(frames.min { abs($0.ms - ms) < abs($1.ms - ms) }).frame
    }

    /// The middle half of where a participant's picture lies in `tile`.
    static func pictureCentre(in tile: I420Frame.Region) -> I420Frame.Region {
        TileLayout.fit(width: sourceWidth, height: sourceHeight, in: tile).middleHalf
    }

    static func expectColour(_ frame: I420Frame, _ region: I420Frame.Region, _ colour: Colour, _ what: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let mean = try frame.meanColour(in: region)
        let close = abs(mean.y - Double(colour.y)) <= 8 && abs(mean.u - Double(colour.u)) <= 8 && abs(mean.v - Double(colour.v)) <= 8
        #expect(close, "\(what): mean \(mean), expected \(colour)", sourceLocation: sourceLocation)
    }

    @Test func gridShowsEachParticipantsPictureAndNameTilesAndTheMix() async throws {
        var script = RoomEventScript()
        script.join("1", "Red", atMs: 0)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 3000, senderReportFrom: 0)
        script.video("1", frames: try Self.solidVideo(Self.red, count: 90), fromMs: 0)
        script.join("3", "Carol", atMs: 0, video: false)
        try script.audio("3", frequency: 880, fromMs: 0, toMs: 3000, senderReportFrom: 0)
        script.join("2", "Blue", atMs: 1000)
        try script.audio("2", frequency: 660, fromMs: 1000, toMs: 2500, senderReportFrom: 0)
        script.video("2", frames: try Self.solidVideo(Self.blue, count: 45), fromMs: 1000)
        script.leave("2", atMs: 2500)
        let settings = try CompositeSettings(width: 320, height: 180, framesPerSecond: 15)
        let (directory, manifest) = try await Self.record(script, endMs: 3000, settings: settings)
        defer { directory.remove() }
        let path = directory.file("room.webm")

        // One VP8 stream at the composite's size and one Opus stream; decodes clean; 3 s long.
        let webm = try await RoomRecorderTests.inspectWebM(path)
        #expect(webm.streams == ["opus", "vp8,320,180"])
        #expect(webm.decodeErrors == "")
        #expect(webm.mkvinfo == 0)
        let duration = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        let seconds = try #require(Double(duration.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(abs(seconds - 3) <= 0.2, "duration \(seconds) s")
        #expect(!FileManager.default.fileExists(atPath: directory.file("mix.wav")), "composite without mix writes no mix.wav")

        let frames = try await Self.decodedFrames(path, width: 320, height: 180)
        #expect(frames.count == 45, "15 fps for 3 s")
        #expect(frames.first?.ms == 0)
        for (ms, present) in [(500.0, ["Red", "Carol"]), (1800, ["Red", "Carol", "Blue"]), (2900, ["Red", "Carol"])] {
            let frame = try Self.frame(nearMs: ms, in: frames)
            let layout = TileLayout(layout: .grid, canvasWidth: 320, canvasHeight: 180, participants: present, speaker: nil)
            let redTile = try #require(layout.tile(named: "Red")).region
            try Self.expectColour(frame, Self.pictureCentre(in: redTile), Self.red, "Red at \(ms) ms")
            if let blueTile = layout.tile(named: "Blue")?.region {
                try Self.expectColour(frame, Self.pictureCentre(in: blueTile), Self.blue, "Blue at \(ms) ms")
            }
            // Carol has no video: a plain tile with her name in light letters.
            let carol = try #require(layout.tile(named: "Carol")).region
            let carolMean = try frame.meanColour(in: carol)
            #expect(carolMean.y > 50 && carolMean.y < 110, "Carol's tile at \(ms) ms: \(carolMean)")
            var bright = 0
            for row in carol.y..<(carol.y + carol.height) {
                for column in carol.x..<(carol.x + carol.width) where frame.luma(x: column, y: row) > 180 { bright += 1 }
            }
            #expect(bright > 100, "Carol's name at \(ms) ms: \(bright) bright samples")
        }

        // The room mix, as Opus: every tone where its participant was in the room.
        let pcm = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:a", "-f", "s16le", "-ac", "1",
                                                        "-ar", "48000", "-"]).data
        let samples: [Int16] = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(abs(samples.count - 144_000) <= 960, "\(samples.count) samples")
        let early = samples[24_000..<48_000], middle = samples[72_000..<96_000], late = samples[126_000..<min(samples.count, 140_000)]
        #expect(goertzel(early, frequency: 440) > 100 * goertzel(early, frequency: 660))
        #expect(goertzel(early, frequency: 880) > 100 * goertzel(early, frequency: 660))
        #expect(goertzel(middle, frequency: 660) > goertzel(middle, frequency: 440) / 4)
        #expect(goertzel(late, frequency: 440) > 100 * goertzel(late, frequency: 660), "Blue left at 2.5 s")

        // The manifest lists room.webm with its tracks and its (zero) drops.
        let file = try #require(manifest.files.first { $0.path == "room.webm" })
        #expect(file.format == "composite")
        #expect(file.tracks.map(\.codec) == ["vp8", "opus"])
        #expect(file.tracks.first?.width == 320 && file.tracks.first?.height == 180)
        #expect(file.framesDropped == 0)
        #expect(file.error == nil)
        #expect(!manifest.files.contains { $0.path == "mix.wav" })
        let json = try String(contentsOfFile: directory.file("manifest.json"), encoding: .utf8)
        #expect(json.contains("\"frames_dropped\""))
    }

    @Test func speakerLayoutFollowsWhoTalks() async throws {
        var script = RoomEventScript()
        script.join("1", "Red", atMs: 0)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 1500, senderReportFrom: 0)
        script.video("1", frames: try Self.solidVideo(Self.red, count: 120), fromMs: 0)
        script.join("2", "Blue", atMs: 0)
        try script.audio("2", frequency: 660, fromMs: 1500, toMs: 4000, senderReportFrom: 0)
        script.video("2", frames: try Self.solidVideo(Self.blue, count: 120), fromMs: 0)
        let settings = try CompositeSettings(width: 320, height: 180, framesPerSecond: 15, layout: .speaker)
        // With mix.wav as well: one mix feeds both.
        let (directory, manifest) = try await Self.record(script, endMs: 4000, settings: settings,
                                                          formats: RecordingFormats([.composite, .mix]))
        defer { directory.remove() }
        #expect(manifest.files.map(\.path) == ["mix.wav", "room.webm"])
        let mix = try SoundFileReader(path: directory.file("mix.wav")).readAll()
        #expect(mix.count == 192_000)

        let frames = try await Self.decodedFrames(directory.file("room.webm"), width: 320, height: 180)
        for (ms, speaker, other) in [(1200.0, "Red", "Blue"), (3000, "Blue", "Red")] {
            let layout = TileLayout(layout: .speaker, canvasWidth: 320, canvasHeight: 180, participants: ["Red", "Blue"], speaker: speaker)
            let frame = try Self.frame(nearMs: ms, in: frames)
            let large = try #require(layout.tiles.first { $0.isSpeaker }).region
            let small = try #require(layout.tile(named: other)).region
            try Self.expectColour(frame, Self.pictureCentre(in: large), speaker == "Red" ? Self.red : Self.blue, "large tile at \(ms) ms")
            try Self.expectColour(frame, Self.pictureCentre(in: small), other == "Red" ? Self.red : Self.blue, "strip at \(ms) ms")
        }
    }

    @Test func framesBeyondTheQueueAreDroppedAndCounted() throws {
        let compositor = RoomCompositor(sink: MemoryByteSink(), settings: CompositeSettings(), queueCapacity: 4)
        let frames = try Self.solidVideo(Self.red, count: 10)
        compositor.suspend()
        compositor.join("a", display: "A", atMs: 0)
        for (index, encoded) in frames.enumerated() {
            let frame = RemoteFrame(participantID: "a", kind: .video, codec: .vp8, bytes: encoded.data, isKeyframe: encoded.isKeyframe,
                                    rtpTimestamp: Int64(index) * 3000, clockRate: 90_000, wallTimeNanoseconds: 0, mappedBySenderReport: false)
            compositor.add(frame, atMs: Int64(index) * 33, audio: [], from: "a")
        }
        // The join and the mix are never dropped, whatever waits.
        compositor.mix([Int16](repeating: 0, count: 960), atSample: 0)
        #expect(compositor.framesDropped == 7, "4 waiting (the join among them), 7 of 10 frames over")
        compositor.resume()
        compositor.finish(atMs: 1000)
        #expect(compositor.error == nil)
        #expect(compositor.manifestFiles(bytes: { _ in nil }).last?.framesDropped == 7)
    }
}
