import Foundation
import Testing
import TestSupport

@testable import Agent
@testable import AgentCore
@testable import AgentMedia

@Suite(.offThePool) struct RemoteAudioSinkTests {
    typealias Media = RemoteTrackTestMedia

    /// 3 s of 20 ms packets as a lossy network delivers them: packets 20-21 lost (40 ms, to be
    /// concealed), 60-79 missing (400 ms, like DTX, to be silence), 101 before 100 (100 arrives
    /// after its span was concealed), 120 twice.
    static func lossyOrder() -> [Int] {
        var order = Array(0..<20) + Array(22..<60) + Array(80..<100) + [101, 100]
        order += Array(102...120) + [120] + Array(121..<150)
        return order
    }

    /// Runs the lossy packet order through a sink; returns its frames (after ``finish()`` when
    /// `finishing`) and counters.
    private func run(_ packets: [RemoteFrame], format: RemoteAudioFormat,
                     finishing: Bool) throws -> ([RemoteAudioFrame], RemoteAudioSinkCounters) {
        let frames = Collected<RemoteAudioFrame>()
        let sink = try RemoteAudioSink(format: format) { frames.append($0) }
        for index in Self.lossyOrder() { sink.receive(packets[index]) }
        if finishing { sink.finish() }
        return (frames.all, sink.counters)
    }

    /// Checks the frames are whole, contiguous and dated on the RTP timeline from the first packet.
    private func expectContiguous(_ frames: [RemoteAudioFrame], format: RemoteAudioFormat) {
        for (index, frame) in frames.enumerated() {
            let samples = frame.int16Samples?.count ?? frame.floatSamples?.count ?? -1
            #expect(samples == format.samplesPerChannel * format.channels, "frame \(index) has \(samples) samples")
            #expect(frame.rtpTimestamp == Media.rtpStart + Int64(index) * format.ticksPerFrame)
            #expect(frame.wallTimeNanoseconds == Media.wallStart + Int64(index) * Int64(format.frameDuration.rawValue) * 1_000_000)
            #expect(frame.isDiscontinuity == (index == 0))
        }
    }

    /// The frames whose start lies in `packets` (indices of 20 ms packets).
    private func slice(_ frames: [RemoteAudioFrame], packets: Range<Int>) -> [RemoteAudioFrame] {
        let range = (Media.rtpStart + Int64(packets.lowerBound) * 960)..<(Media.rtpStart + Int64(packets.upperBound) * 960)
        return frames.filter { range.contains($0.rtpTimestamp) }
    }

    /// The amplitude of a sine at `frequency` in `samples`, from its Goertzel power.
    static func amplitude(of frequency: Double, in samples: [Int16], sampleRate: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        return 2 * goertzelPower(samples, frequency: frequency, sampleRate: sampleRate).squareRoot() / Double(samples.count)
    }

    @Test func monoAt16kHzIn10msFramesFollowsTheRTPTimeline() throws {
        let packets = try Media.opusPackets(count: 150, channels: 1, tone: Media.sine(frequency: 440))
        let format = try RemoteAudioFormat(sampleRate: 16_000, channels: 1, frameDuration: .milliseconds10)
        let (frames, counters) = try run(packets, format: format, finishing: false)

        // The span is 150 packets of 20 ms = 3 s = 300 frames of 10 ms; all but the last partial
        // frame (and the resampler's few held-back samples) are out before finish.
        print("16 kHz/10 ms: \(frames.count) frames for 3 s of RTP time; \(counters)")
        #expect((299...300).contains(frames.count))
        expectContiguous(frames, format: format)
        #expect(counters.packetsDecoded == 127)
        #expect(counters.packetsLate == 2)
        #expect(counters.packetsUndecodable == 0)
        #expect(counters.gapsConcealed == 2)
        #expect(counters.concealedSamples == 2_880)
        #expect(counters.gapsSilenced == 1)
        #expect(counters.silenceSamples == 19_200)
        #expect(counters.framesDelivered == frames.count)

        // The tone comes through at 16 kHz: 440 Hz dominates its octave and a non-harmonic.
        let steady = slice(frames, packets: 30..<55).flatMap { $0.int16Samples ?? [] }
        let tone = goertzelPower(steady, frequency: 440, sampleRate: 16_000)
        let octave = goertzelPower(steady, frequency: 880, sampleRate: 16_000)
        let other = goertzelPower(steady, frequency: 1_234, sampleRate: 16_000)
        print("16 kHz: 440 Hz power / 880 Hz \(tone / octave), / 1234 Hz \(tone / other)")
        #expect(tone > 1_000 * octave)
        #expect(tone > 1_000 * other)

        // The 40 ms loss is concealed: flagged, and it carries the tone on.
        let concealed = slice(frames, packets: 20..<22)
        #expect(concealed.count == 4 && concealed.allSatisfy(\.containsFill))
        let steadyAmplitude = Self.amplitude(of: 440, in: steady, sampleRate: 16_000)
        let concealedAmplitude = Self.amplitude(of: 440, in: concealed.flatMap { $0.int16Samples ?? [] }, sampleRate: 16_000)
        print("16 kHz: 440 Hz amplitude \(steadyAmplitude) steady, \(concealedAmplitude) concealed")
        #expect(concealedAmplitude > steadyAmplitude / 4, "concealment continues the tone")

        // The 400 ms gap is silence after the first frame, and every frame of it is flagged.
        let silent = slice(frames, packets: 60..<80)
        #expect(silent.count == 40 && silent.allSatisfy(\.containsFill))
        // (The resampler's filter smears the edges into the first and last frame of it.)
        #expect(silent.dropFirst().dropLast().allSatisfy { $0.int16Samples?.allSatisfy { $0 == 0 } == true })
        #expect(slice(frames, packets: 40..<60).allSatisfy { !$0.containsFill })
    }

    @Test func stereoAt48kHzIn20msFramesKeepsChannelsAndDuration() throws {
        let packets = try Media.opusPackets(count: 150, channels: 2, bitrate: 96_000) { channel, sample in
            Media.sine(frequency: channel == 0 ? 440 : 660)(channel, sample)
        }
        let format = try RemoteAudioFormat(sampleRate: 48_000, channels: 2, frameDuration: .milliseconds20,
                                           sampleFormats: [.int16, .float])
        let (frames, counters) = try run(packets, format: format, finishing: true)

        // 48 kHz needs no resampler, and 20 ms packets fill 20 ms frames exactly: 150 frames.
        #expect(frames.count == 150)
        expectContiguous(frames, format: format)
        #expect(counters.framesWithFill == 2 + 20 + 1)
        for frame in frames {
            let ints = try #require(frame.int16Samples)
            let floats = try #require(frame.floatSamples)
            #expect(ints == PCMConversion.int16s(fromFloats: floats))
        }

        let steady = slice(frames, packets: 30..<55).flatMap { $0.int16Samples ?? [] }
        let left = stride(from: 0, to: steady.count, by: 2).map { steady[$0] }
        let right = stride(from: 1, to: steady.count, by: 2).map { steady[$0] }
        let leftRatio = goertzelPower(left, frequency: 440) / goertzelPower(left, frequency: 660)
        let rightRatio = goertzelPower(right, frequency: 660) / goertzelPower(right, frequency: 440)
        print("48 kHz stereo: left 440/660 \(leftRatio), right 660/440 \(rightRatio)")
        #expect(leftRatio > 1_000)
        #expect(rightRatio > 1_000)
    }

    @Test func finishPadsTheLastFrameSoDurationMatchesTheSpan() throws {
        let packets = try Media.opusPackets(count: 150, channels: 1, tone: Media.sine(frequency: 440))
        for rate in [8_000, 24_000, 44_100] {
            let format = try RemoteAudioFormat(sampleRate: rate, frameDuration: .milliseconds10, sampleFormats: .float)
            let (frames, _) = try run(packets, format: format, finishing: true)
            #expect(frames.count == 300, "\(rate) Hz")
            expectContiguous(frames, format: format)
            #expect(frames.allSatisfy { $0.floatSamples?.count == rate / 100 && $0.int16Samples == nil })
        }
    }

    @Test func aJumpPastTheFillLimitRestartsTheTimelineInsteadOfFilling() throws {
        let packets = try Media.opusPackets(count: 20, channels: 1, tone: Media.sine(frequency: 440))
        let format = try RemoteAudioFormat(frameDuration: .milliseconds20)
        let frames = Collected<RemoteAudioFrame>()
        let sink = try RemoteAudioSink(format: format, gapPolicy: try RemoteAudioGapPolicy(fillUpTo: .seconds(1))) {
            frames.append($0)
        }
        for packet in packets[0..<10] { sink.receive(packet) }
        // The sender jumps 2 minutes ahead (a paused publisher coming back).
        for var packet in packets[10..<20] {
            packet.rtpTimestamp += 120 * 48_000
            sink.receive(packet)
        }
        let all = frames.all
        #expect(all.count == 20, "no 2 minutes of silence in one go")
        #expect(all[10].isDiscontinuity && all[10].rtpTimestamp == packets[10].rtpTimestamp + 120 * 48_000)
        #expect(sink.counters.timelineRestarts == 1)

        // A stray packet from far behind is dropped; a run of them is a sender that went back.
        let before = sink.counters
        sink.receive(packets[0])
        #expect(sink.counters.packetsLate == before.packetsLate + 1)
        for packet in packets[1..<3] { sink.receive(packet) }
        #expect(sink.counters.timelineRestarts == 2)
    }

    @Test func corruptAndForeignPacketsAreCountedNotFatal() throws {
        let packets = try Media.opusPackets(count: 10, channels: 1, tone: Media.sine(frequency: 440))
        let frames = Collected<RemoteAudioFrame>()
        let sink = try RemoteAudioSink(format: try RemoteAudioFormat()) { frames.append($0) }
        sink.receive(packets[0])
        var empty = packets[1]
        empty.bytes = []
        sink.receive(empty)
        var video = packets[1]
        video.kind = .video
        sink.receive(video)
        // A TOC byte that promises a 2-frame packet (code 1) with an odd payload length.
        var corrupt = packets[1]
        corrupt.bytes = [packets[1].bytes[0] & 0xFC | 0x01, 1, 2, 3]
        sink.receive(corrupt)
        for packet in packets[2..<10] { sink.receive(packet) }
        #expect(sink.counters.packetsUndecodable == 3)
        #expect(frames.count == 10)
        expectContiguous(frames.all, format: try RemoteAudioFormat())
    }
}
