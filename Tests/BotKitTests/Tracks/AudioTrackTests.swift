import Agent
import Foundation
import TestSupport
import Testing

@testable import BotKit

@Suite struct AudioTrackTests {
    static func tone(_ frequency: Double, seconds: Double, sampleRate: Int, amplitude: Double = 0.5) -> [Float] {
        (0..<Int(seconds * Double(sampleRate))).map { index in
            Float(amplitude * sin(2 * Double.pi * frequency * Double(index) / Double(sampleRate)))
        }
    }

    static func interleave(_ left: [Float], _ right: [Float]) -> [Float] {
        zip(left, right).flatMap { [$0, $1] }
    }

    static func decode(_ packets: [AudioTrack.Packet], channels: Int = 1) throws -> [Int16] {
        let decoder = try OpusDecoder(channels: channels)
        var pcm: [Int16] = []
        for packet in packets {
            let frame = try decoder.decode(packet.bytes)
            #expect(frame.count == AudioTrack.samplesPerChannelPerFrame * channels)
            pcm += frame
        }
        return pcm
    }

    static func channel(_ samples: [Int16], _ channel: Int, of channels: Int) -> [Int16] {
        stride(from: channel, to: samples.count, by: channels).map { samples[$0] }
    }

    static func rms<C: Collection>(_ samples: C) -> Double where C.Element == Int16 {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }

    /// 0.6 s pushed at `rate` comes out as 30 packets of the tone at its own pitch, then silence.
    private func checkTone(track: AudioTrack, frequency: Double, rate: Int) throws {
        #expect(abs(Self.milliseconds(track.queuedDuration) - 600) <= 2, "\(track.queuedDuration)")
        let packets = (0..<35).map { _ in track.nextPacket() }
        #expect(packets.prefix(30).allSatisfy { $0.hasAudio })
        #expect(packets.suffix(4).allSatisfy { !$0.hasAudio })
        let decoded = try Self.decode(packets)
        let middle = decoded.dropFirst(4_800).prefix(19_200)
        let atTone = goertzelPower(middle, frequency: frequency)
        // Where the tone would sit had the track taken the samples as 48 kHz.
        let relabelled = goertzelPower(middle, frequency: frequency * Double(rate) / 48_000)
        let fifth = goertzelPower(middle, frequency: frequency * 1.5)
        let level = Self.rms(middle)
        let tail = Self.rms(decoded.suffix(3 * 960))
        print("audio track \(rate) Hz \(frequency) Hz: tone/relabelled \(atTone / relabelled)x, tone/fifth \(atTone / fifth)x, rms \(level), silence rms \(tail), bytes \(packets.map(\.bytes.count))")
        #expect(atTone > 100 * relabelled)
        #expect(atTone > 100 * fifth)
        #expect(level > 8_000, "about 0.5 full scale (11585 rms) arrives")
        #expect(tail < 50)
    }

    @Test("a 44.1 kHz Int16 tone comes out as 48 kHz Opus at its own pitch")
    func int16ToneAt44100() async throws {
        let track = try AudioTrack()
        let samples = PCMConversion.int16s(fromFloats: Self.tone(440, seconds: 0.6, sampleRate: 44_100))
        try await track.push(samples, sampleRate: 44_100, channels: 1)
        try checkTone(track: track, frequency: 440, rate: 44_100)
    }

    @Test("a 16 kHz Float tone comes out as 48 kHz Opus at its own pitch")
    func floatToneAt16000() async throws {
        let track = try AudioTrack(configuration: .init(application: .audio))
        try await track.push(Self.tone(1_000, seconds: 0.6, sampleRate: 16_000), sampleRate: 16_000, channels: 1)
        try checkTone(track: track, frequency: 1_000, rate: 16_000)
    }

    @Test("with nothing pushed, packets are silence and the track never stalls")
    func silence() throws {
        let track = try AudioTrack()
        let packets = (0..<25).map { _ in track.nextPacket() }
        #expect(packets.allSatisfy { !$0.hasAudio && !$0.bytes.isEmpty })
        let decoded = try Self.decode(packets)
        print("audio track silence: rms \(Self.rms(decoded)), bytes \(packets.map(\.bytes.count))")
        #expect(Self.rms(decoded) < 5)
        #expect(track.statistics.silentPackets == 25)
        #expect(track.statistics.packetsWithAudio == 0)
    }

    @Test("less than 20 ms queued is sent, padded with silence")
    func partialFrameIsPadded() async throws {
        let track = try AudioTrack()
        try await track.push(PCMConversion.int16s(fromFloats: Self.tone(440, seconds: 0.03, sampleRate: 48_000)),
                             sampleRate: 48_000, channels: 1)
        let packets = (0..<3).map { _ in track.nextPacket() }
        #expect(packets.map(\.hasAudio) == [true, true, false])
        #expect(track.queuedDuration == .zero)
    }

    /// A track holding `queue` of PCM, full, with a push of `samples` at `rate` waiting for room.
    private func trackWithWaitingPush(_ samples: [Float], sampleRate: Int, queue: Duration = .milliseconds(100))
        async throws -> (AudioTrack, Task<Void, any Error>) {
        let track = try AudioTrack(configuration: .init(maxQueuedDuration: queue))
        let push = Task { try await track.push(samples, sampleRate: sampleRate, channels: 1) }
        // The push's task needs a thread of the shared cooperative pool, which other suites'
        // CPU-bound work can hold for seconds in a parallel run on two cores (seen in CI at 5 s).
        try await pollUntil(timeout: .seconds(30), "the push to wait for room") { track.waitingPushes == 1 }
        return (track, push)
    }

    @Test("a push beyond the queue waits until the pacer drains room, then goes in piece by piece")
    func backpressure() async throws {
        let (track, push) = try await trackWithWaitingPush(Self.tone(440, seconds: 0.3, sampleRate: 48_000), sampleRate: 48_000)
        #expect(track.queuedDuration == .milliseconds(100))
        #expect(try track.tryPush([Int16](repeating: 0, count: 96), sampleRate: 48_000, channels: 1) == false,
                "nothing jumps the queue ahead of a waiting push")

        // 200 ms still wait: nine packets free 180 ms, the tenth lets the rest in.
        for _ in 0..<9 { #expect(track.nextPacket().hasAudio) }
        #expect(track.waitingPushes == 1)
        #expect(track.nextPacket().hasAudio)
        #expect(track.waitingPushes == 0)
        try await push.value
        #expect(track.queuedDuration == .milliseconds(100))
        let rest = (0..<6).map { _ in track.nextPacket().hasAudio }
        #expect(rest == [true, true, true, true, true, false])
    }

    @Test("cancelling a waiting push makes it throw and keeps what was already queued")
    func cancelWaitingPush() async throws {
        let (track, push) = try await trackWithWaitingPush([Float](repeating: 0.25, count: 14_400), sampleRate: 48_000)
        push.cancel()
        await #expect(throws: CancellationError.self) { try await push.value }
        #expect(track.waitingPushes == 0)
        #expect(track.queuedDuration == .milliseconds(100))
        let flags = (0..<6).map { _ in track.nextPacket().hasAudio }
        #expect(flags == [true, true, true, true, true, false], "the withdrawn 200 ms never plays")
    }

    @Test("clear drops queued audio at once and lets a waiting push return")
    func clearForBargeIn() async throws {
        let samples = Self.tone(440, seconds: 0.3, sampleRate: 16_000)
        let (track, push) = try await trackWithWaitingPush(samples, sampleRate: 16_000)
        track.clear()
        try await push.value
        #expect(track.queuedDuration == .zero)
        #expect(track.waitingPushes == 0)
        let packets = (0..<5).map { _ in track.nextPacket() }
        #expect(packets.allSatisfy { !$0.hasAudio })
        let decoded = try Self.decode(packets)
        print("audio track after clear: rms \(Self.rms(decoded)), cleared \(track.statistics.clearedDuration)")
        #expect(Self.rms(decoded) < 50)
        #expect(abs(Self.milliseconds(track.statistics.clearedDuration) - 300) <= 2)

        // The track goes on: the next push plays.
        try await track.push(PCMConversion.int16s(fromFloats: Array(samples.prefix(1_600))), sampleRate: 16_000, channels: 1)
        #expect(track.nextPacket().hasAudio)
    }

    @Test("tryPush queues only what fits now, or nothing")
    func tryPushWhenFull() throws {
        let track = try AudioTrack(configuration: .init(maxQueuedDuration: .milliseconds(100)))
        let sixty = [Int16](repeating: 1_000, count: 2_880)
        #expect(try track.tryPush(sixty, sampleRate: 48_000, channels: 1))
        #expect(try track.tryPush(sixty, sampleRate: 48_000, channels: 1) == false)
        #expect(track.queuedDuration == .milliseconds(60))
        _ = track.nextPacket()
        _ = track.nextPacket()
        #expect(try track.tryPush(sixty, sampleRate: 48_000, channels: 1))
        #expect(track.queuedDuration == .milliseconds(80))
        // A resampled push needs room for what the filter may still release as well.
        track.clear()
        let sixtyAt16k = [Float](repeating: 0.1, count: 960)
        #expect(try track.tryPush(sixtyAt16k, sampleRate: 16_000, channels: 1))
        #expect(abs(Self.milliseconds(track.queuedDuration) - 60) <= 2, "\(track.queuedDuration)")
    }

    @Test("mono is copied to both sides of a stereo track; stereo is mixed down into a mono one")
    func channelMixing() async throws {
        let stereoTrack = try AudioTrack(configuration: .init(channels: 2, bitrate: 96_000, application: .audio))
        try await stereoTrack.push(Self.tone(440, seconds: 0.4, sampleRate: 16_000), sampleRate: 16_000, channels: 1)
        let stereo = try Self.decode((0..<20).map { _ in stereoTrack.nextPacket() }, channels: 2)
        for side in 0..<2 {
            let samples = Self.channel(stereo, side, of: 2).dropFirst(4_800).prefix(9_600)
            #expect(goertzelPower(samples, frequency: 440) > 100 * goertzelPower(samples, frequency: 660))
            #expect(Self.rms(samples) > 8_000)
        }

        let monoTrack = try AudioTrack(configuration: .init(application: .audio))
        let pair = Self.interleave(Self.tone(440, seconds: 0.4, sampleRate: 44_100), Self.tone(660, seconds: 0.4, sampleRate: 44_100))
        try await monoTrack.push(pair, sampleRate: 44_100, channels: 2)
        let mono = try Self.decode((0..<20).map { _ in monoTrack.nextPacket() }).dropFirst(4_800).prefix(9_600)
        let left = goertzelPower(mono, frequency: 440)
        let right = goertzelPower(mono, frequency: 660)
        print("audio track mixdown: 440/660 power \(left / right)")
        #expect(left > 0.5 * right && right > 0.5 * left, "both sides are in the mix at similar level")
        #expect(left > 100 * goertzelPower(mono, frequency: 550))
    }

    @Test("a change of input format keeps the timeline: each part plays in turn, none lost")
    func formatChange() async throws {
        let track = try AudioTrack(configuration: .init(application: .audio))
        try await track.push(Self.tone(440, seconds: 0.2, sampleRate: 16_000), sampleRate: 16_000, channels: 1)
        try await track.push(PCMConversion.int16s(fromFloats: Self.tone(660, seconds: 0.2, sampleRate: 44_100)),
                             sampleRate: 44_100, channels: 1)
        #expect(abs(Self.milliseconds(track.queuedDuration) - 400) <= 2, "\(track.queuedDuration)")
        let decoded = try Self.decode((0..<20).map { _ in track.nextPacket() })
        let first = decoded.dropFirst(1_920).prefix(4_800)
        let second = decoded.dropFirst(11_520).prefix(4_800)
        #expect(goertzelPower(first, frequency: 440) > 100 * goertzelPower(first, frequency: 660))
        #expect(goertzelPower(second, frequency: 660) > 100 * goertzelPower(second, frequency: 440))
    }

    @Test("closing ends waiting and later pushes with a typed error; packets go on as silence")
    func close() async throws {
        let (track, push) = try await trackWithWaitingPush([Float](repeating: 0.2, count: 4_800), sampleRate: 48_000,
                                                           queue: .milliseconds(20))
        track.close()
        track.close()
        await #expect(throws: AudioTrackError.closed) { try await push.value }
        await #expect(throws: AudioTrackError.closed) { try await track.push([Int16(0)], sampleRate: 8_000, channels: 1) }
        #expect(throws: AudioTrackError.closed) { try track.tryPush([Int16(0)], sampleRate: 8_000, channels: 1) }
        #expect(track.nextPacket().hasAudio == false)
    }

    @Test("pushers in several tasks and a pacer pulling meanwhile finish without losing or stalling")
    func concurrentPushersAndPacer() async throws {
        let track = try AudioTrack(configuration: .init(maxQueuedDuration: .milliseconds(100)))
        let chunk = PCMConversion.int16s(fromFloats: Self.tone(440, seconds: 0.03, sampleRate: 48_000))
        let pushers = (0..<4).map { _ in
            Task { for _ in 0..<10 { try await track.push(chunk, sampleRate: 48_000, channels: 1) } }
        }
        // 4 x 10 x 30 ms = 1.2 s of audio: 60 packets if the pacer never found the queue short.
        var audioPackets = 0
        // A generous deadline: in the full suite, tests that wait on ffmpeg can hold both of the
        // pool's threads for seconds, and the pushers are tasks on that pool.
        try await pollUntil(timeout: .seconds(90), "every push to be played") {
            for _ in 0..<5 where track.nextPacket().hasAudio { audioPackets += 1 }
            return audioPackets >= 60 && track.waitingPushes == 0 && track.queuedDuration == .zero
        }
        for pusher in pushers { try await pusher.value }
        print("audio track concurrent: \(audioPackets) packets with audio for 60 packets' worth")
        #expect(audioPackets >= 60 && audioPackets <= 100)
    }

    @Test("bad configuration and bad input are refused with typed errors")
    func badArguments() async throws {
        let refused: [(AudioTrack.Configuration, AudioTrackError)] = [
            (.init(channels: 3), .unsupportedChannels(3)),
            (.init(channels: 0), .unsupportedChannels(0)),
            (.init(bitrate: 0), .unsupportedBitrate(0)),
            (.init(bitrate: 600_000), .unsupportedBitrate(600_000)),
            (.init(expectedPacketLossPercent: 101), .unsupportedPacketLossPercent(101)),
            (.init(maxQueuedDuration: .zero), .unsupportedMaxQueuedDuration(.zero)),
            (.init(maxQueuedDuration: .seconds(61)), .unsupportedMaxQueuedDuration(.seconds(61))),
        ]
        for (configuration, error) in refused {
            #expect(throws: error) { try AudioTrack(configuration: configuration) }
        }

        let track = try AudioTrack()
        await #expect(throws: AudioTrackError.unsupportedInputRate(0)) {
            try await track.push([Int16](repeating: 0, count: 160), sampleRate: 0, channels: 1)
        }
        await #expect(throws: AudioTrackError.unsupportedInputChannels(3)) {
            try await track.push([Float](repeating: 0, count: 480), sampleRate: 16_000, channels: 3)
        }
        await #expect(throws: AudioTrackError.partialFrame(sampleCount: 3, channels: 2)) {
            try await track.push([Float](repeating: 0, count: 3), sampleRate: 16_000, channels: 2)
        }
        #expect(throws: AudioTrackError.unsupportedInputRate(200_000)) {
            try track.tryPush([Int16](repeating: 0, count: 160), sampleRate: 200_000, channels: 1)
        }
        #expect(throws: AudioTrackError.unsupportedInputChannels(0)) {
            try track.tryPush([Int16](repeating: 0, count: 160), sampleRate: 16_000, channels: 0)
        }
        #expect(throws: AudioTrackError.unsupportedPacketLossPercent(-1)) { try track.setExpectedPacketLossPercent(-1) }
        #expect(track.queuedDuration == .zero, "nothing was queued")
        #expect("\(AudioTrackError.unsupportedInputRate(0))".contains("0 Hz"))
    }
}
