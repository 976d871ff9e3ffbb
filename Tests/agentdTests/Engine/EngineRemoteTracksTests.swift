import Agent
import Foundation
import Synchronization
import TestSupport
import Testing

/// Remote tracks through a channel against the lab: an aiortc publisher's audio decoded to 16 kHz
/// PCM in 10 ms frames, its video decoded to I420 and passed encoded, mute and unmute without
/// leaving the room (video asking for a keyframe to resume), the sinks' figures in the stats, and
/// a delegate seeing the same events as the stream.
@Suite("EngineRemoteTracks", .enabled(if: LabEnvironment.shouldRun || LabEnvironment.shouldRunDisruptive), .serialized)
struct EngineRemoteTracksTests {
    @Test("audio and video sinks get decoded frames; mute stops them, unmute resumes; stats carry frames decoded and audio level",
          .enabled(if: LabEnvironment.shouldRun))
    func sinksThroughAChannel() async throws {
        try await SharedResourceLock.lab.withExclusive { try await watchSinks() }
    }

    private func watchSinks() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("sinks")
        let engine = AgentEngine(loopCount: 1, loopName: "test.sinks")
        do {
            let join = RoomJoin(
                endpoint: .janus(server: lab.janusWS, room: room), display: "sink-audience", create: true,
                iceAddresses: [lab.hostIP ?? "10.77.0.1"])
            let channel = try await engine.join(join, options: ChannelOptions(statsInterval: .milliseconds(500)))
            let log = ChannelEventLog(channel.events)
            let delegate = try SinkAttachingDelegate()
            await channel.setDelegate(delegate)

            let (publisher, id) = try await LabPublisher.start(lab, room: room, display: "alice", tone: 440)
            defer { publisher.terminate() }
            try await pollUntil(timeout: .seconds(20), "2 s of audio and 20 pictures") {
                delegate.audio.samples.count >= 32_000 && delegate.video.pictures.count >= 20
            }

            // Audio: 10 ms frames of 160 samples at 16 kHz carrying the publisher's tone.
            let samples = delegate.audio.samples
            #expect(delegate.audio.frameLengths.allSatisfy { $0 == 160 }, "frame lengths \(Set(delegate.audio.frameLengths))")
            let tail = Array(samples.suffix(16_000))
            let tone = goertzelPower(tail, frequency: 440, sampleRate: 16_000)
            let neighbour = goertzelPower(tail, frequency: 660, sampleRate: 16_000)
            print("EngineRemoteTracks: 440 Hz \(tone), 660 Hz \(neighbour)")
            #expect(tone > 100 * neighbour, "440 Hz \(tone) vs 660 Hz \(neighbour)")

            // Video: decoded pictures of one size; the encoded sink saw the same frames.
            let pictures = delegate.video.pictures
            #expect(pictures.allSatisfy { $0.width > 0 && $0.width == pictures[0].width && $0.height == pictures[0].height })
            let encoded = try #require(delegate.encodedSink)
            #expect(encoded.counters.framesForwarded >= pictures.count - 2, "encoded \(encoded.counters.framesForwarded), decoded \(pictures.count)")

            // Stats: the sinks' figures.
            try await pollUntil(timeout: .seconds(10), "a report with decoded frames and audio level") {
                guard let report = log.reports.last?.report else { return false }
                return (report.track(of: id, kind: .video)?.framesDecoded ?? 0) > 0
                    && (report.track(of: id, kind: .audio)?.audioLevel ?? 0) > 0.05
            }
            print("EngineRemoteTracks: \(log.reports.last?.report.statsString ?? "")")

            // Mute both: nothing more reaches the sinks, frames are counted as skipped.
            let audioTrack = try #require(delegate.track(.audio))
            let videoTrack = try #require(delegate.track(.video))
            audioTrack.mute()
            videoTrack.mute()
            let (audioAtMute, picturesAtMute) = (delegate.audio.samples.count, delegate.video.pictures.count)
            try await pollUntil(timeout: .seconds(10), "1 s of muted frames") {
                audioTrack.counters.framesSkippedMuted >= 50 && videoTrack.counters.framesSkippedMuted >= 10
            }
            #expect(delegate.audio.samples.count - audioAtMute <= 320, "audio went on while muted")
            #expect(delegate.video.pictures.count - picturesAtMute <= 1, "video went on while muted")
            #expect(channel.connectionState == .connected && channel.users.map(\.id) == [id])

            // Unmute: forwarding resumes at once (audio decodes on; the encoded sink, which does
            // not wait for keyframes, gets video frames again); the decoding video sink waits for
            // a keyframe and asks the sender for one through the track (PLI, then FIR).
            let videoSink = try #require(delegate.videoSink)
            let encodedAtUnmute = encoded.counters.framesForwarded
            let sinkRequestsAtUnmute = videoSink.counters.keyframeRequests
            let requestsAtUnmute = log.reports.last?.report.track(of: id, kind: .video).map { $0.plis + $0.firs } ?? 0
            audioTrack.unmute()
            videoTrack.unmute()
            try await pollUntil(timeout: .seconds(10), "audio and video frames after unmute, and a keyframe request sent") {
                let requests = log.reports.last?.report.track(of: id, kind: .video).map { $0.plis + $0.firs } ?? 0
                return delegate.audio.samples.count >= audioAtMute + 16_000 && encoded.counters.framesForwarded >= encodedAtUnmute + 10
                    && requests > requestsAtUnmute
            }
            #expect(videoSink.counters.keyframeRequests == sinkRequestsAtUnmute + 1, "the sink asks once after unmute: \(videoSink.counters)")
            #expect(videoSink.counters.decodeErrors == 0)
            #expect(audioTrack.counters.unmutes == 1 && videoTrack.counters.mutes == 1)
            // Whether the picture comes back depends on a keyframe arriving: Janus forwards our
            // subscriber PLIs to the publisher in some sessions only (seen in the lab, not understood yet).
            print("EngineRemoteTracks after unmute: \(videoSink.counters)")

            // The delegate saw what the stream saw, in the same order.
            #expect(delegate.joinedBeforeTracks(of: id))
            await channel.setDelegate(nil)
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }

    @Test("stats at the set interval under 5 % loss: bitrates above zero, audio loss near 5 %",
          .enabled(if: LabEnvironment.shouldRunDisruptive))
    func statisticsUnderLoss() async throws {
        try await SharedResourceLock.lab.withExclusive { try await watchLoss() }
    }

    private func watchLoss() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("statsloss")
        let engine = AgentEngine(loopCount: 1, loopName: "test.statsloss")
        do {
            let join = RoomJoin(
                endpoint: .janus(server: lab.janusWS, room: room), display: "stats-audience", create: true,
                iceAddresses: [lab.hostIP ?? "10.77.0.1"])
            let channel = try await engine.join(join, options: ChannelOptions(statsInterval: .seconds(1)))
            let log = ChannelEventLog(channel.events)
            let (publisher, id) = try await LabPublisher.start(lab, room: room, display: "alice", tone: 440)
            defer { publisher.terminate() }
            try await pollUntil(timeout: .seconds(20), "a report with both tracks flowing") {
                guard let report = log.reports.last?.report else { return false }
                return (report.track(of: id, kind: .audio)?.bitrate ?? 0) > 0 && (report.track(of: id, kind: .video)?.bitrate ?? 0) > 0
            }
            let applied = try await RecordingChecks.lab("up", "--loss", "5")
            #expect(applied.status == 0, "\(applied.output)")
            try await withCleanup {
                let start = try #require(log.reports.last?.report.track(of: id, kind: .audio))
                let reportsBefore = log.reports.count
                try await pollUntil(timeout: .seconds(30), "eight reports under loss") { log.reports.count >= reportsBefore + 8 }
                let reports = Array(log.reports.dropFirst(reportsBefore))
                let stats = try #require(await RecordingChecks.lab("loss-stats").output.nonEmpty)
                _ = try await RecordingChecks.lab("up")

                // The interval, from the reports' own times (a starved consumer may read several at once).
                let times = reports.map(\.report.measuredAt)
                let spacing = times.last!.timeIntervalSince(times.first!) / Double(times.count - 1)
                #expect(spacing > 0.85 && spacing < 1.2, "reports every \(spacing) s")

                // Bitrates stay up; audio (no retransmission for Opus) loses about 5 % on each of the
                // two legs through the lab (publisher → Janus → us).
                let audio = reports.compactMap { $0.report.track(of: id, kind: .audio) }
                let video = reports.compactMap { $0.report.track(of: id, kind: .video) }
                #expect(audio.count == reports.count && video.count == reports.count)
                #expect(audio.allSatisfy { $0.bitrate > 8_000 }, "audio bitrates \(audio.map(\.bitrate))")
                #expect(video.allSatisfy { $0.bitrate > 0 }, "video bitrates \(video.map(\.bitrate))")
                let end = try #require(audio.last)
                let lost = end.lost - start.lost
                let received = end.packets - start.packets
                let fraction = Double(lost) / Double(lost + received)
                print("EngineRemoteTracks under loss: audio lost \(lost) of \(lost + received) (\(fraction)); per report "
                      + "\(audio.map { String(format: "%.3f", $0.fractionLost) }); video lost \(video.last!.lost), nacks \(video.last!.nacks); "
                      + stats.replacingOccurrences(of: "\n", with: " "))
                #expect(fraction > 0.01 && fraction < 0.2, "audio loss \(fraction)")
                #expect(audio.allSatisfy { (0...0.4).contains($0.fractionLost) }, "per-report loss \(audio.map(\.fractionLost))")
                #expect((video.last?.nacks ?? 0) > 0, "no NACK sent for video under loss")
                #expect(channel.connectionState == .connected)
            } cleanup: {
                _ = try? await RecordingChecks.lab("up")
            }
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

/// Attaches sinks to every track it is told about and keeps what they deliver.
private final class SinkAttachingDelegate: ChannelDelegate {
    final class AudioCapture: Sendable {
        private let state = Mutex<(samples: [Int16], lengths: [Int])>(([], []))
        var samples: [Int16] { state.withLock { $0.samples } }
        var frameLengths: [Int] { state.withLock { $0.lengths } }
        func add(_ frame: RemoteAudioFrame) {
            guard let samples = frame.int16Samples else { return }
            state.withLock { state in
                state.samples += samples
                state.lengths.append(samples.count)
            }
        }
    }

    final class VideoCapture: Sendable {
        private let state = Mutex<[(width: Int, height: Int)]>([])
        var pictures: [(width: Int, height: Int)] { state.withLock { $0 } }
        func add(_ frame: RemoteVideoFrame) { state.withLock { $0.append((frame.image.width, frame.image.height)) } }
    }

    private struct State {
        var tracks: [MediaKind: RemoteTrack] = [:]
        var videoSink: RemoteVideoSink?
        var encodedSink: RemoteTrackEncodedSink?
        var order: [String] = []
    }

    let audio = AudioCapture()
    let video = VideoCapture()
    let format: RemoteAudioFormat
    private let state = Mutex(State())

    init() throws {
        format = try RemoteAudioFormat(sampleRate: 16_000, frameDuration: .milliseconds10)
    }

    var videoSink: RemoteVideoSink? { state.withLock { $0.videoSink } }
    var encodedSink: RemoteTrackEncodedSink? { state.withLock { $0.encodedSink } }
    func track(_ kind: MediaKind) -> RemoteTrack? { state.withLock { $0.tracks[kind] } }

    func joinedBeforeTracks(of id: String) -> Bool {
        state.withLock { $0.order } .prefix(3) == ["joined \(id)", "audio \(id)", "video \(id)"][...]
            || state.withLock { $0.order }.prefix(3) == ["joined \(id)", "video \(id)", "audio \(id)"][...]
    }

    func channel(_ channel: Channel, userJoined user: User) async {
        state.withLock { $0.order.append("joined \(user.id)") }
    }

    func channel(_ channel: Channel, trackSubscribed track: RemoteTrack, of user: User) async {
        state.withLock { state in
            state.order.append("\(track.kind.rawValue) \(user.id)")
            state.tracks[track.kind] = track
        }
        switch track.kind {
        case .audio:
            let audio = self.audio
            guard let sink = try? RemoteAudioSink(format: format, handler: { audio.add($0) }) else { return }
            track.add(sink)
        case .video:
            let video = self.video
            let sink = RemoteVideoSink(delivery: .handler { video.add($0) })
            let encoded = RemoteTrackEncodedSink(waitsForKeyframe: false, delivery: .handler { _ in })
            state.withLock { state in
                state.videoSink = sink
                state.encodedSink = encoded
            }
            track.add(sink)
            track.add(encoded)
        }
    }
}
