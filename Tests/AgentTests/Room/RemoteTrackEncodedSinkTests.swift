import Testing

@testable import Agent
@testable import AgentCore

@Suite struct RemoteTrackEncodedSinkTests {
    typealias Media = RemoteTrackTestMedia

    @Test func videoPassesFromAKeyframeBytesUntouched() throws {
        let frames = try Media.videoFrames(count: 30, keyframesAt: [20]).map(\.frame)
        let out = Collected<RemoteFrame>()
        let requests = Collected<RemoteVideoKeyframeGate.Reason>()
        let sink = RemoteTrackEncodedSink(delivery: .handler { out.append($0) }, onKeyframeNeeded: { requests.append($0) })
        for frame in frames[3..<12] { sink.receive(frame) }
        sink.frameLost()
        for frame in frames[12...] { sink.receive(frame) }
        #expect(out.all.map(\.bytes) == frames[20...].map(\.bytes))
        #expect(out.all.map(\.rtpTimestamp) == frames[20...].map(\.rtpTimestamp))
        #expect(requests.all == [.start])
        #expect(sink.counters.framesSkippedWaitingForKeyframe == 17)

        // After a loss once flowing: waits again, asks again.
        sink.frameLost()
        sink.receive(frames[25])
        #expect(out.count == 10)
        #expect(requests.all == [.start, .frameLost])
    }

    @Test func audioAndUngatedVideoPassEverything() throws {
        let audio = try Media.opusPackets(count: 5, channels: 1, tone: Media.sine(frequency: 440))
        let video = try Media.videoFrames(count: 5).map(\.frame)
        let out = Collected<RemoteFrame>()
        let audioSink = RemoteTrackEncodedSink(delivery: .handler { out.append($0) })
        for frame in audio { audioSink.receive(frame) }
        audioSink.frameLost()
        audioSink.resume()
        audioSink.receive(audio[0])
        #expect(out.count == 6)
        let ungated = RemoteTrackEncodedSink(waitsForKeyframe: false, delivery: .handler { out.append($0) })
        for frame in video.reversed() { ungated.receive(frame) }
        #expect(out.count == 11)
        ungated.finish()
        ungated.receive(video[0])
        #expect(out.count == 11, "nothing after finish")
    }
}
