import Testing
import TestSupport

@testable import Agent

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
}
