import Agent
import BotKit
import Foundation
import TestSupport
import Testing

/// A BotKit bot's live video in H.264 (libopenh264) against the lab: recorded by `agentd record`
/// into a clean `<name>.mkv`, chosen by the room when the track leaves the choice to it, and
/// refused with the room's codecs when the room does not take the caller's choice.
@Suite("BotVideoCodec", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct BotVideoCodecTests {
    static let recordSeconds = 6

    static func configuration(_ lab: LabEnvironment, room: String, display: String, create: Bool) -> BotConfiguration {
        BotConfiguration(server: lab.janusWS, room: room, display: display, create: create,
                         iceAddresses: [lab.hostIP ?? "10.77.0.1"], listens: false)
    }

    /// Starts a bot with `video` in `room`, records the room for ``recordSeconds`` while
    /// pushing a 320x240 moving square at 15 fps, and returns the recording's directory and
    /// what the bot sent.
    private static func recordBot(_ lab: LabEnvironment, room: String, create: Bool, video: VideoTrack,
                                  scratch: ScratchDirectory) async throws -> (out: String, sent: SendStreamStatistics?) {
        let out = scratch.path("recording")
        let bot = Bot(configuration: configuration(lab, room: room, display: "codecbot", create: create))
        try await bot.start(BotMedia(videoTrack: video, dataChannel: false))
        let recording = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--duration", String(recordSeconds),
             "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"],
            name: "agentd record")
        defer { recording.terminate() }
        try await SquarePusher.push(video, while: recording)
        #expect(recording.exitStatus == 0, "\(recording.stderr)")
        let sent = await bot.sendStatistics()[.video]
        await bot.stop()
        return (out, sent)
    }

    /// Checks `<out>/codecbot.mkv`: H.264 at 320x240 that ffmpeg decodes without an error, with
    /// about 15 frames a second of the recording (the recorder joins while the bot runs).
    private static func expectCleanH264(_ out: String, sent: SendStreamStatistics?) async throws {
        let mkv = out + "/codecbot.mkv"
        #expect(!FileManager.default.fileExists(atPath: out + "/codecbot.webm"))
        let streams = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", mkv])
        #expect(streams.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,320,240", "\(streams.output)")
        let errors = try await RecordingChecks.decodeErrors(mkv)
        #expect(errors.isEmpty, "decode errors: \(errors.prefix(600))")
        let count = try await runTool("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "v", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", mkv,
        ])
        let frames = Int(count.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        print("BotVideoCodec: codecbot.mkv holds \(frames) H.264 frames of \(recordSeconds) s at 15 fps; sent \(String(describing: sent))")
        #expect((70...95).contains(frames), "recorded \(frames) frames of a 15 fps bot over \(recordSeconds) s")
    }

    @Test("a bot's H.264 VideoTrack, recorded by agentd record: codecbot.mkv, h264 320x240, decodes clean, ~15 fps")
    func h264TrackIsRecorded() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let scratch = try ScratchDirectory("bot-h264")
            let video = try VideoTrack(configuration: .init(codec: .h264, bitrate: 600_000, framesPerSecond: 30))
            let (out, sent) = try await Self.recordBot(lab, room: LabEnvironment.freshRoom("both264"), create: true, video: video, scratch: scratch)
            try await Self.expectCleanH264(out, sent: sent)
            let statistics = video.statistics
            // The recorder's PLI on joining was answered with an IDR of our own.
            #expect(statistics.keyframeRequests >= 1 && statistics.keyframes >= 2, "\(statistics)")
            #expect(statistics.codec == .h264 && statistics.framesRejected == 0 && statistics.codecChanges == 0)
        }
    }

    @Test("the room's choice: a room listing h264,vp8 takes H.264 of a VP8/H.264 track, recorded clean; one listing vp8,h264 takes VP8")
    func theRoomChoosesTheCodec() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let scratch = try ScratchDirectory("bot-roomcodec")
            var h264First = VideoRoomCreateOptions()
            h264First.videocodec = "h264,vp8"
            let h264Room = LabEnvironment.freshRoom("roomh264")
            try await LabRoom.with(lab, room: h264Room, options: h264First) {
                let video = try VideoTrack(configuration: .init(codec: nil, bitrate: 600_000))
                let (out, sent) = try await Self.recordBot(lab, room: h264Room, create: false, video: video, scratch: scratch)
                #expect(video.codec == .h264)
                try await Self.expectCleanH264(out, sent: sent)
                // No frame came before the publish, so none was VP8.
                #expect(video.statistics.codec == .h264 && video.statistics.codecChanges == 0, "\(video.statistics)")
            }
            var vp8First = VideoRoomCreateOptions()
            vp8First.videocodec = "vp8,h264"
            let vp8Room = LabEnvironment.freshRoom("roomvp8")
            try await LabRoom.with(lab, room: vp8Room, options: vp8First) {
                let video = try VideoTrack(configuration: .init(codec: nil))
                let bot = Bot(configuration: Self.configuration(lab, room: vp8Room, display: "codecbot", create: false))
                try await bot.start(BotMedia(videoTrack: video, dataChannel: false))
                await bot.stop()
                #expect(video.codec == .vp8)
            }
        }
    }

    @Test("a caller's H.264 in a vp8-only room is refused naming vp8; the room's choice there starts with VP8")
    func aRoomThatDoesNotTakeTheCallersCodecRefusesIt() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            var vp8Only = VideoRoomCreateOptions()
            vp8Only.videocodec = "vp8"
            let room = LabEnvironment.freshRoom("roomvp8only")
            try await LabRoom.with(lab, room: room, options: vp8Only) {
                let h264 = try VideoTrack(configuration: .init(codec: .h264))
                let refused = Bot(configuration: Self.configuration(lab, room: room, display: "h264bot", create: false))
                do {
                    try await refused.start(BotMedia(videoTrack: h264, dataChannel: false))
                    Issue.record("a vp8-only room took H.264")
                    await refused.stop()
                } catch let AgentError.codecRefused(tracks, allowed) {
                    print("BotVideoCodec: \(AgentError.codecRefused(refused: tracks, allowed: allowed))")
                    #expect(tracks.map(\.codec) == [.h264])
                    #expect(allowed?.video == ["vp8"], "\(String(describing: allowed))")
                }
                let video = try VideoTrack(configuration: .init(codec: nil))
                let bot = Bot(configuration: Self.configuration(lab, room: room, display: "choicebot", create: false))
                try await bot.start(BotMedia(videoTrack: video, dataChannel: false))
                await bot.stop()
                #expect(video.codec == .vp8)
            }
        }
    }
}
