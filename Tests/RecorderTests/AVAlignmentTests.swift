import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// Video lined up with audio by the streams' sender reports, when their first frames were placed
/// by arrival with different delays (the AVSync lab test's flake: a first keyframe 27 ms slower
/// than the first audio packet put every white frame 27 ms after its beep).
@Suite(.offThePool) struct AVAlignmentTests {
    @Test func theShiftIsAudiosErrorMinusVideosOnceBothHaveASenderReportAndTheEstimateSettled() {
        var alignment = AVAlignment()
        let settled = AVAlignment.settleMs
        #expect(alignment.placed(kind: .video, atMs: 140, senderReportMs: nil) == nil)
        #expect(alignment.placed(kind: .video, atMs: 140, senderReportMs: 100) == nil)  // video 40 ms late
        #expect(alignment.placed(kind: .audio, atMs: 205, senderReportMs: 200) == nil)  // audio 5 ms late
        #expect(!alignment.isAligned, "both have a report, but the estimate is still gathering")
        #expect(alignment.placed(kind: .audio, atMs: 140 + settled - 1, senderReportMs: 140 + settled - 6) == nil)
        #expect(alignment.placed(kind: .audio, atMs: 140 + settled, senderReportMs: 140 + settled - 5) == -35)
        #expect(alignment.isAligned)
        // Later reports move nothing: a few ms of jitter each, and video must not wobble.
        #expect(alignment.placed(kind: .video, atMs: 5000, senderReportMs: 4000) == nil)
        alignment.reset()
        #expect(!alignment.isAligned)
        #expect(alignment.placed(kind: .audio, atMs: 0, senderReportMs: 10) == nil)
        #expect(alignment.placed(kind: .video, atMs: 0, senderReportMs: 0) == nil)
        #expect(alignment.placed(kind: .video, atMs: settled, senderReportMs: settled) == -10, "settles from the reset")
        var late = AVAlignment()
        #expect(late.placed(kind: .audio, atMs: 0, senderReportMs: nil) == nil)
        #expect(late.placed(kind: .audio, atMs: 3000, senderReportMs: 3000) == nil)
        #expect(late.placed(kind: .video, atMs: 3010, senderReportMs: 3000) == -10, "a pair after the settle time commits at once")
        var absurd = AVAlignment()
        #expect(absurd.placed(kind: .audio, atMs: .min, senderReportMs: 1) == nil)
        #expect(absurd.placed(kind: .video, atMs: .max, senderReportMs: -1) == nil)
    }

    /// A report stamped late (the RTP time of a packet sent a while before the report) makes that
    /// track's SR time later, never earlier: the least-delayed report, the largest error, wins.
    @Test func theLeastDelayedReportOfEachTrackSetsTheShift() {
        var alignment = AVAlignment()
        // Video's first report is 108 ms late (placed 40 ms late by arrival: error 40 - 108),
        // its second only 3 ms; audio's reports are 5 and 2 ms late (errors 0 - 5, 0 - 2).
        #expect(alignment.placed(kind: .audio, atMs: 0, senderReportMs: nil) == nil)
        #expect(alignment.placed(kind: .video, atMs: 600, senderReportMs: 600 - 40 + 108) == nil)
        #expect(alignment.placed(kind: .audio, atMs: 700, senderReportMs: 700 + 5) == nil)
        #expect(alignment.placed(kind: .video, atMs: 1300, senderReportMs: 1300 - 40 + 3) == nil)
        #expect(alignment.placed(kind: .audio, atMs: 1500, senderReportMs: 1500 + 2) == nil)
        #expect(alignment.placed(kind: .video, atMs: 1700, senderReportMs: 1700 - 40 + 108) == nil, "a late one again")
        // (-2) - (40 - 3): video moves 39 ms earlier; the first report alone would have said +66.
        #expect(alignment.placed(kind: .audio, atMs: AVAlignment.settleMs, senderReportMs: AVAlignment.settleMs + 9) == -39)
    }

    /// Every report of one track delayed past belief (audio's 120 ms late: a shift of -125 ms) is
    /// waited out: a prompt report commits the true shift; none by the give-up time, no shift.
    @Test func anImplausibleShiftWaitsForAPromptReportOrGivesUpForNone() {
        var alignment = AVAlignment()
        #expect(alignment.placed(kind: .video, atMs: 0, senderReportMs: -5) == nil)  // video 5 ms late
        #expect(alignment.placed(kind: .audio, atMs: 20, senderReportMs: 20 + 120) == nil)
        #expect(alignment.placed(kind: .audio, atMs: AVAlignment.settleMs, senderReportMs: nil) == nil, "-125 ms is not believed")
        #expect(!alignment.isAligned)
        #expect(alignment.placed(kind: .audio, atMs: 3000, senderReportMs: 3000 - 10) == 5, "audio 10 ms late, video 5: +5")
        var stuck = AVAlignment()
        #expect(stuck.placed(kind: .video, atMs: 0, senderReportMs: 0) == nil)
        #expect(stuck.placed(kind: .audio, atMs: 20, senderReportMs: 20 + 120) == nil)
        #expect(stuck.placed(kind: .audio, atMs: AVAlignment.giveUpMs - 1, senderReportMs: nil) == nil)
        #expect(stuck.placed(kind: .audio, atMs: AVAlignment.giveUpMs, senderReportMs: nil) == 0, "arrival placement stands")
        #expect(stuck.isAligned)
        var plausible = AVAlignment()
        #expect(plausible.placed(kind: .video, atMs: 0, senderReportMs: -90) == nil)
        #expect(plausible.placed(kind: .audio, atMs: AVAlignment.settleMs, senderReportMs: AVAlignment.settleMs) == -90,
                "a shift inside the bound commits at the settle time as before")
    }

    /// (stream index, pts in ms) of every packet, in file order. ffmpeg shows audio blocks 7 ms
    /// early: it subtracts the Opus track's CodecDelay (6.5 ms of pre-skip).
    static func packets(_ path: String) async throws -> [(stream: Int, pts: Int)] {
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts",
                                                           "-of", "csv=p=0", path])
        return probe.output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").compactMap { Int($0) }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
    }

    /// Ann's 5 s of audio (20 ms packets) and 150 video frames, each track mapped by arrival
    /// `errorMs` late until its first sender-report-mapped frame `reportFrom`; recorded to WebM
    /// and WAV.
    static func recordAnn(audioErrorMs: Double = 0, audioReportFrom: Int = 51,
                          videoErrorMs: Double = 0, videoReportFrom: Int) async throws
        -> (directory: TestDirectory, manifest: RecordingManifest)
    {
        let directory = try TestDirectory()
        var script = RoomEventScript()
        script.join("1", "Ann", atMs: 0)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 5000, arrivalErrorMs: audioErrorMs, senderReportFrom: audioReportFrom)
        let video = try RoomEventScript.encodeVideo(count: 150, width: 160, height: 120)
        script.video("1", frames: video, fromMs: 0, arrivalErrorMs: videoErrorMs, senderReportFrom: videoReportFrom)
        let recorder = try RoomRecorderTests.makeRecorder(directory, formats: RecordingFormats([.webm, .wav]))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 5000))
        return (directory, manifest)
    }

    @Test func videoWhoseFirstFramesArrivedLateIsPlacedByTheSenderReports() async throws {
        // The first keyframe came 40 ms late, and the arrival mapping kept that until the
        // first sender report (frame 30, 1 s in).
        let (directory, manifest) = try await Self.recordAnn(videoErrorMs: 40, videoReportFrom: 30)
        defer { directory.remove() }
        #expect(manifest.participants.first?.files.first?.startMs == 0)
        #expect(manifest.participants.first?.files.first?.tracks.last?.avShiftMs == -40)
        let packets = try await Self.packets(directory.file("Ann.webm"))
        let audio = packets.filter { $0.stream == 0 }.map(\.pts)
        let videoTimes = packets.filter { $0.stream == 1 }.map(\.pts)
        #expect(audio.prefix(3) == [-7, 13, 33])  // blocks at 0, 20, 40
        #expect(videoTimes.count == 150)
        #expect(videoTimes.prefix(4) == [0, 33, 66, 100], "video at \(videoTimes.prefix(4))")
        #expect(videoTimes.last == 4966)
    }

    @Test func audioIsNeverMovedVideoFollowsIt() async throws {
        // This time audio's first packet was the late one: 30 ms.
        let (directory, manifest) = try await Self.recordAnn(audioErrorMs: 30, audioReportFrom: 40, videoReportFrom: 20)
        defer { directory.remove() }
        // The WebM starts with both tracks 30 ms into the recording, in step.
        #expect(manifest.participants.first?.files.first?.startMs == 30)
        #expect(manifest.participants.first?.files.first?.tracks.last?.avShiftMs == 30)
        let packets = try await Self.packets(directory.file("Ann.webm"))
        #expect(packets.filter { $0.stream == 0 }.map(\.pts).prefix(2) == [-7, 13])  // blocks at 0, 20
        #expect(packets.filter { $0.stream == 1 }.map(\.pts).prefix(4) == [0, 33, 66, 100])
        // The WAV keeps audio where it was placed (room mix and other participants agree with it).
        let wav = try SoundFileReader(path: directory.file("Ann.wav")).readAll()
        let first = try #require(wav.firstIndex { $0 != 0 })
        #expect((1440...1440 + 48).contains(first), "first sample \(first)")
    }

    @Test func aReportAfterTheHoldLimitMovesTheVideoStillToComeAndKeepsItsOrder() async throws {
        // No report for video for 3 s: the file is created unaligned at the 2 s hold limit.
        let (directory, manifest) = try await Self.recordAnn(videoErrorMs: 40, videoReportFrom: 90)
        defer { directory.remove() }
        #expect(manifest.participants.first?.files.first?.tracks.last?.avShiftMs == -40)
        let videoTimes = try await Self.packets(directory.file("Ann.webm")).filter { $0.stream == 1 }.map(\.pts)
        #expect(videoTimes.count == 150)
        #expect(videoTimes.first == 40)
        #expect(zip(videoTimes, videoTimes.dropFirst()).allSatisfy { $0 < $1 })
        #expect(videoTimes.last == 4966, "aligned from the report on: \(videoTimes.suffix(3))")
        let decode = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", directory.file("Ann.webm"), "-f", "null", "-"])
        #expect(decode.status == 0 && decode.errors.isEmpty, "\(decode.errors)")
    }
}
