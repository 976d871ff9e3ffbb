import Testing

@testable import Agent
@testable import AgentCore

@Suite struct RemoteTrackFrameStreamTests {
    typealias Media = RemoteTrackTestMedia

    @Test func aLaggingConsumerLosesTheOldestFramesAndTheyAreCounted() async throws {
        let packets = try Media.opusPackets(count: 20, channels: 1, tone: Media.sine(frequency: 440))
        let (sink, frames) = try RemoteAudioSink.streaming(format: try RemoteAudioFormat(), bufferLimit: 4)
        for packet in packets { sink.receive(packet) }
        sink.finish()
        var received: [RemoteAudioFrame] = []
        for await frame in frames { received.append(frame) }
        #expect(received.count == 4)
        #expect(sink.counters.framesDelivered == 20)
        #expect(sink.counters.framesDropped == 16)
        // The newest survive: live media wants the latest.
        #expect(received.map(\.rtpTimestamp) == packets[16..<20].map(\.rtpTimestamp))
    }

    @Test func bufferLimitMustHoldAFrame() {
        #expect(throws: RemoteTrackError.invalidBufferLimit(0)) {
            _ = try RemoteTrackFrameStream<RemoteFrame>(bufferLimit: 0)
        }
    }

    @Test func formatsAndPoliciesAreValidated() throws {
        #expect(throws: RemoteTrackError.unsupportedSampleRate(22_050)) { _ = try RemoteAudioFormat(sampleRate: 22_050) }
        #expect(throws: RemoteTrackError.unsupportedChannels(6)) { _ = try RemoteAudioFormat(channels: 6) }
        #expect(throws: RemoteTrackError.noSampleFormat) { _ = try RemoteAudioFormat(sampleFormats: []) }
        #expect(throws: RemoteTrackError.self) { _ = try RemoteAudioGapPolicy(concealUpTo: .milliseconds(200)) }
        #expect(throws: RemoteTrackError.self) { _ = try RemoteAudioGapPolicy(fillUpTo: .milliseconds(50)) }
        let sizes = try RemoteAudioFormat.supportedSampleRates.map { rate in
            try RemoteAudioFormat(sampleRate: rate, frameDuration: .milliseconds10).samplesPerChannel
        }
        #expect(sizes == [80, 160, 240, 320, 441, 480])
        #expect(RemoteAudioGapPolicy.standard.concealTicks == 5_760)
        #expect(RemoteAudioGapPolicy.standard.fillTicks == 240_000)
    }
}
