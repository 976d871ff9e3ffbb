import Testing
import TestSupport

@testable import Agent
@testable import AgentTransport

@Suite(.offThePool) struct RemoteTrackTests {
    typealias Media = RemoteTrackTestMedia

    @Test func mutedAudioCostsNoDecodeAndResumesOnTheTimelineWithoutABurst() throws {
        let packets = try Media.opusPackets(count: 150, channels: 1, tone: Media.sine(frequency: 440))
        let format = try RemoteAudioFormat(sampleRate: 16_000, frameDuration: .milliseconds10)
        let frames = Collected<RemoteAudioFrame>()
        let sink = try RemoteAudioSink(format: format) { frames.append($0) }
        let track = RemoteTrack(participantID: "alice", kind: .audio, codec: .opus)
        track.add(sink)
        track.add(sink)
        #expect(track.sinks.count == 1)

        for packet in packets[0..<50] { track.deliver(packet) }
        let beforeMute = frames.count
        #expect((99...100).contains(beforeMute))
        track.mute()
        #expect(track.isMuted)
        for packet in packets[50..<100] { track.deliver(packet) }
        #expect(frames.count == beforeMute)
        #expect(sink.counters.packetsDecoded == 50, "a muted track decodes nothing")
        #expect(track.counters.framesSkippedMuted == 50)

        track.unmute()
        track.deliver(packets[100])
        let firstAfter = frames.all[beforeMute...]
        #expect(firstAfter.count <= 2, "no burst of catch-up audio for the muted second")
        let resumed = try #require(firstAfter.first)
        #expect(resumed.isDiscontinuity)
        #expect(resumed.rtpTimestamp == packets[100].rtpTimestamp, "back on the RTP timeline")
        for packet in packets[101...] { track.deliver(packet) }
        let after = Array(frames.all[beforeMute...])
        #expect((99...100).contains(after.count))
        #expect(after.enumerated().allSatisfy { $1.rtpTimestamp == packets[100].rtpTimestamp + Int64($0) * 480 })
        #expect(after.dropFirst().allSatisfy { !$0.isDiscontinuity && !$0.containsFill })
        let samples = after[5...].flatMap { $0.int16Samples ?? [] }
        #expect(goertzelPower(samples, frequency: 440, sampleRate: 16_000)
                > 1_000 * goertzelPower(samples, frequency: 1_000, sampleRate: 16_000))
        #expect(sink.counters.gapsSilenced == 0 && sink.counters.gapsConcealed == 0)
        #expect(track.counters == .init(framesForwarded: 100, framesSkippedMuted: 50, mutes: 1, unmutes: 1))
    }

    @Test func unmutedVideoWaitsForAKeyframeAndAsksForOne() throws {
        let frames = try Media.videoFrames(count: 30, keyframesAt: [20]).map(\.frame)
        let pictures = Collected<RemoteVideoFrame>()
        let requests = Collected<RemoteVideoSink.KeyframeReason>()
        let sink = RemoteVideoSink(delivery: .handler { pictures.append($0) }, onKeyframeNeeded: { requests.append($0) })
        let track = RemoteTrack(participantID: "bob", kind: .video, codec: .vp8)
        track.add(sink)
        for frame in frames[0..<10] { track.deliver(frame) }
        track.mute()
        track.mute()
        for frame in frames[10..<15] { track.deliver(frame) }
        track.frameLost()
        #expect(sink.counters.framesReceived == 10, "nothing reaches the decoder while muted")
        #expect(requests.all.isEmpty)
        track.unmute()
        track.unmute()
        for frame in frames[15...] { track.deliver(frame) }
        #expect(requests.all == [.resumed])
        #expect(pictures.all.map { ($0.rtpTimestamp - Media.rtpStart) / 3000 } == Array(0..<10) + Array(20..<30))
        #expect(sink.counters.framesSkippedWaitingForKeyframe == 5)
        #expect(track.counters.mutes == 1 && track.counters.unmutes == 1)
    }

    @Test func removingAndFinishingEndTheSinksStreams() async throws {
        let packets = try Media.opusPackets(count: 3, channels: 1, tone: Media.sine(frequency: 440))
        let track = RemoteTrack(participantID: "alice", kind: .audio, codec: .opus)
        let (audio, audioFrames) = try RemoteAudioSink.streaming(format: try RemoteAudioFormat())
        let (encoded, encodedFrames) = try RemoteTrackEncodedSink.streaming()
        track.add(audio)
        track.add(encoded)
        for packet in packets { track.deliver(packet) }
        track.remove(audio)
        var audioCount = 0
        for await _ in audioFrames { audioCount += 1 }
        #expect(audioCount == 3)
        track.deliver(packets[0])
        track.finish()
        track.finish()
        track.deliver(packets[1])
        var encodedCount = 0
        for await _ in encodedFrames { encodedCount += 1 }
        #expect(encodedCount == 4)
        #expect(track.sinks.isEmpty)
    }

    // MARK: On a worker lane (as a channel runs its tracks)

    /// The same packets through a track on a lane and through one without: the same frames,
    /// with the same RTP and wall times, only decoded on the lane's thread instead of the caller's.
    @Test func onALaneTheSinksDecodeOffTheCallerWithTheSameFramesAndTimes() async throws {
        let packets = try Media.opusPackets(count: 60, channels: 1, tone: Media.sine(frequency: 440))
        let video = try Media.videoFrames(count: 12, keyframesAt: [6]).map(\.frame)
        let format = try RemoteAudioFormat(sampleRate: 16_000, frameDuration: .milliseconds20)
        let lanes = WorkerLanes(count: 1, capacity: 1_000, name: "test.track")
        defer { lanes.shutdown() }
        let lane = lanes.lane(for: 0)

        func run(on lane: WorkerLane?) throws -> (audio: Collected<RemoteAudioFrame>, pictures: Collected<RemoteVideoFrame>,
                                                  threads: Collected<Bool>) {
            let audio = Collected<RemoteAudioFrame>()
            let pictures = Collected<RemoteVideoFrame>()
            let threads = Collected<Bool>()
            let audioTrack = RemoteTrack(participantID: "alice", kind: .audio, codec: .opus)
            let videoTrack = RemoteTrack(participantID: "bob", kind: .video, codec: .vp8)
            if let lane {
                audioTrack.runSinks(on: lane)
                videoTrack.runSinks(on: lane)
            }
            audioTrack.add(try RemoteAudioSink(format: format) { frame in
                audio.append(frame)
                threads.append(lane?.isCurrent ?? true)
            })
            videoTrack.add(RemoteVideoSink(delivery: .handler { picture in
                pictures.append(picture)
                threads.append(lane?.isCurrent ?? true)
            }))
            for packet in packets { audioTrack.deliver(packet) }
            for frame in video { videoTrack.deliver(frame) }
            audioTrack.finish()
            videoTrack.finish()
            return (audio, pictures, threads)
        }

        let direct = try run(on: nil)
        let laned = try run(on: lane)
        await lane.flush()
        #expect(direct.audio.count >= 60, "60 packets of 20 ms, and the padded tail")
        #expect(laned.audio.all.map(\.rtpTimestamp) == direct.audio.all.map(\.rtpTimestamp))
        #expect(laned.audio.all.map(\.wallTimeNanoseconds) == direct.audio.all.map(\.wallTimeNanoseconds))
        #expect(laned.audio.all.map(\.int16Samples) == direct.audio.all.map(\.int16Samples))
        #expect(direct.pictures.count == 12)
        #expect(laned.pictures.all.map(\.rtpTimestamp) == direct.pictures.all.map(\.rtpTimestamp))
        #expect(laned.pictures.all.map(\.wallTimeNanoseconds) == direct.pictures.all.map(\.wallTimeNanoseconds))
        #expect(laned.pictures.all.map(\.image) == direct.pictures.all.map(\.image))
        #expect(laned.threads.count == direct.audio.count + 12 && laned.threads.all.allSatisfy { $0 }, "every frame came out on the lane")
    }

    /// A lane whose sinks fell behind: frames past its bound are dropped before the sinks and
    /// counted, and the video sink takes the next frame as following a loss (it waits for a
    /// keyframe and asks for one, from the lane, through the track). A loss the channel reports
    /// reaches the sinks just before the next frame.
    @Test func aFullLaneDropsAndCountsAndVideoThenWaitsForAKeyframe() async throws {
        let frames = try Media.videoFrames(count: 40, keyframesAt: [20, 35]).map(\.frame)
        let lanes = WorkerLanes(count: 1, capacity: 3, name: "test.full")
        defer { lanes.shutdown() }
        let lane = lanes.lane(for: 0)
        let pictures = Collected<RemoteVideoFrame>()
        let reasons = Collected<RemoteVideoSink.KeyframeReason>()
        let trackRequests = Collected<Bool>()
        let sink = RemoteVideoSink(delivery: .handler { pictures.append($0) }, onKeyframeNeeded: { reasons.append($0) })
        let track = RemoteTrack(participantID: "bob", kind: .video, codec: .vp8)
        track.runSinks(on: lane)
        track.setKeyframeHandler { trackRequests.append(lane.isCurrent) }
        track.add(sink)

        let gate = LaneGate()
        try await gate.hold(lane)
        for frame in frames[0..<6] { track.deliver(frame) }
        #expect(track.counters.framesForwarded == 3)
        #expect(track.counters.framesDroppedLaneFull == 3, "three waited, three found the lane full")
        #expect(lane.dropped == 3)
        gate.open()
        await lane.flush()
        // One frame at a time from here: a bound of three must not drop any more.
        for frame in frames[6..<25] {
            track.deliver(frame)
            await lane.flush()
        }
        track.frameLost()
        for frame in frames[25...] {
            track.deliver(frame)
            await lane.flush()
        }

        let indices = pictures.all.map { Int(($0.rtpTimestamp - Media.rtpStart) / 3000) }
        #expect(indices == Array(0..<3) + Array(20..<25) + Array(35..<40))
        #expect(reasons.all == [.frameLost, .frameLost], "one request per wait")
        #expect(trackRequests.all == [true, true], "the requests reach the track's handler from the lane")
        #expect(sink.counters.framesSkippedWaitingForKeyframe == 14 + 10)
        #expect(track.counters.framesForwarded == 37 && track.counters.framesDroppedLaneFull == 3)
    }

    /// Removing a sink and finishing the track end the sinks' streams after the frames already
    /// queued for them, and an end is queued even on a full lane.
    @Test func onALaneRemoveAndFinishComeAfterTheQueuedFrames() async throws {
        let packets = try Media.opusPackets(count: 3, channels: 1, tone: Media.sine(frequency: 440))
        let lanes = WorkerLanes(count: 1, capacity: 3, name: "test.end")
        defer { lanes.shutdown() }
        let lane = lanes.lane(for: 0)
        let track = RemoteTrack(participantID: "alice", kind: .audio, codec: .opus)
        track.runSinks(on: lane)
        let (audio, audioFrames) = try RemoteAudioSink.streaming(format: try RemoteAudioFormat())
        let (encoded, encodedFrames) = try RemoteTrackEncodedSink.streaming()
        track.add(audio)
        track.add(encoded)
        let gate = LaneGate()
        try await gate.hold(lane)
        for packet in packets { track.deliver(packet) }
        track.remove(audio)
        track.finish()
        #expect(lane.waiting == 5, "three frames, the removal and the end, past a bound of three")
        #expect(audio.counters.framesDelivered == 0 && encoded.counters.framesForwarded == 0, "nothing ran yet")
        gate.open()
        var audioCount = 0
        for await _ in audioFrames { audioCount += 1 }
        var encodedCount = 0
        for await _ in encodedFrames { encodedCount += 1 }
        #expect(audioCount == 3)
        #expect(encodedCount == 3)
        #expect(track.counters.framesDroppedLaneFull == 0)
    }
}
