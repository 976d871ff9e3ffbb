import Foundation
import Synchronization
import Testing
import TestSupport

@testable import Agent
@testable import AgentCore
@testable import AgentMedia

/// Render processors on a remote audio sink: they see each decoded frame before the level meter
/// and the sink's consumer, and the engine's default reaches sinks made without one.
@Suite struct RemoteAudioSinkProcessorTests {
    typealias Media = RemoteTrackTestMedia

    /// What a spy processor saw, frame by frame, before it changed anything.
    final class Seen: Sendable {
        private let frames = Mutex<[[Int16]]>([])
        func append(_ frame: [Int16]) { frames.withLock { $0.append(frame) } }
        var all: [[Int16]] { frames.withLock { $0 } }
        var count: Int { frames.withLock { $0.count } }
    }

    /// Records each frame, then divides it by ten: the sink must deliver exactly that.
    struct Spy: AudioProcessor {
        let format: AudioProcessingFormat
        let seen: Seen

        mutating func process(_ samples: inout [Int16]) throws(AudioProcessorError) {
            try checkFrameLength(of: samples)
            seen.append(samples)
            for index in samples.indices { samples[index] /= 10 }
        }
    }

    static func spyFactory(_ seen: Seen) -> AudioProcessorFactory {
        AudioProcessorFactory(name: "spy") { format throws(AudioProcessorError) in Spy(format: format, seen: seen) }
    }

    /// What the sink's consumer got, with how many frames the processor had seen by then.
    final class Delivered: Sendable {
        private let frames = Mutex<[(frame: RemoteAudioFrame, seenByThen: Int)]>([])
        func append(_ frame: RemoteAudioFrame, seenByThen: Int) { frames.withLock { $0.append((frame, seenByThen)) } }
        var all: [(frame: RemoteAudioFrame, seenByThen: Int)] { frames.withLock { $0 } }
    }

    @Test("a render processor sees each frame before the sink's consumer and its level meter")
    func renderProcessorRunsBeforeTheConsumer() throws {
        let packets = try Media.opusPackets(count: 50, channels: 1, tone: Media.sine(frequency: 440))
        let format = try RemoteAudioFormat(sampleRate: 16_000, channels: 1, frameDuration: .milliseconds10,
                                           sampleFormats: [.int16, .float])
        let seen = Seen()
        let delivered = Delivered()
        let sink = try RemoteAudioSink(format: format, processor: Self.spyFactory(seen)) { frame in
            delivered.append(frame, seenByThen: seen.count)
        }
        let plain = try RemoteAudioSink(format: format) { _ in }
        for packet in packets {
            sink.receive(packet)
            plain.receive(packet)
        }
        let frames = delivered.all
        let seenFrames = seen.all
        #expect(frames.count >= 98)
        for (index, (frame, seenByThen)) in frames.enumerated() {
            #expect(seenByThen >= index + 1, "frame \(index) reached the consumer before the processor")
            guard index < seenFrames.count else { break }
            let expected = seenFrames[index].map { $0 / 10 }
            #expect(frame.int16Samples == expected, "frame \(index) is what the processor made of it")
            #expect(frame.floatSamples == expected.map { Float($0) / 32_768 })
        }
        // The level meter measured the processed audio: -20 dB from the unprocessed sink's.
        let drop = 20 * log10(sink.level.totals.energy / plain.level.totals.energy) / 2
        print("render processor: \(frames.count) frames, level \(sink.level.current.dBov) dBov vs \(plain.level.current.dBov) unprocessed (\(String(format: "%.1f", drop)) dB)")
        #expect(abs(drop + 20) < 0.5)
        #expect(sink.counters.processorFailures == 0)
    }

    @Test("a track gives its default to sinks made without a processor, not to one with a pass-through")
    func theEngineDefaultReachesSinksWithoutOne() throws {
        let packets = try Media.opusPackets(count: 25, channels: 1, tone: Media.sine(frequency: 440))
        let format = try RemoteAudioFormat(sampleRate: 48_000)
        let track = RemoteTrack(participantID: "alice", kind: .audio, codec: .opus)
        let seen = Seen()
        track.setDefaultAudioProcessor(Self.spyFactory(seen))
        let defaulted = Collected<RemoteAudioFrame>()
        let optedOut = Collected<RemoteAudioFrame>()
        let own = Seen()
        let ownFrames = Collected<RemoteAudioFrame>()
        track.add(try RemoteAudioSink(format: format) { defaulted.append($0) })
        track.add(try RemoteAudioSink(format: format, processor: .passThrough) { optedOut.append($0) })
        track.add(try RemoteAudioSink(format: format, processor: Self.spyFactory(own)) { ownFrames.append($0) })
        for packet in packets { track.deliver(packet) }

        #expect(defaulted.count == 25 && optedOut.count == 25 && ownFrames.count == 25)
        #expect(seen.count == 25, "only the sink without a processor of its own took the default")
        #expect(own.count == 25)
        for index in 0..<25 {
            let raw = optedOut.all[index].int16Samples ?? []
            #expect(defaulted.all[index].int16Samples == raw.map { $0 / 10 })
        }
        #expect(SignalMetrics.rms(optedOut.all.flatMap { $0.int16Samples ?? [] }) > 5_000)
    }

    @Test func aProcessorThatCannotBeMadeIsATypedErrorOrACountedDefault() throws {
        let failing = AudioProcessorFactory(name: "failing") { format throws(AudioProcessorError) in
            throw .sampleRateNotSupported(processor: "test", rate: format.sampleRate, supported: [])
        }
        let format = try RemoteAudioFormat(sampleRate: 24_000)
        #expect(throws: RemoteTrackError.processor(.sampleRateNotSupported(processor: "test", rate: 24_000, supported: []))) {
            _ = try RemoteAudioSink(format: format, processor: failing) { _ in }
        }
        // As a default it cannot throw at anyone: the sink counts it and runs unprocessed.
        let track = RemoteTrack(participantID: "alice", kind: .audio, codec: .opus)
        track.setDefaultAudioProcessor(failing)
        let frames = Collected<RemoteAudioFrame>()
        let sink = try RemoteAudioSink(format: format) { frames.append($0) }
        track.add(sink)
        for packet in try Media.opusPackets(count: 5, channels: 1, tone: Media.sine(frequency: 440)) { track.deliver(packet) }
        // 100 ms at 24 kHz: the resampler holds back a few samples, so the last frame waits for more.
        #expect(frames.count >= 4)
        #expect(sink.counters.processorFailures == 1)
    }

    @Test("speex noise suppression as a render processor cleans a noisy remote track")
    func speexRenderProcessorRaisesTheSNR() throws {
        let signal = ToneInNoise(sampleRate: 48_000)
        let noisy = signal.samples(seconds: 5)
        let packets = try Media.opusPackets(count: 250, channels: 1, bitrate: 128_000) { _, sample in noisy[sample] }
        let format = try RemoteAudioFormat(sampleRate: 48_000)
        let cleaned = Collected<RemoteAudioFrame>()
        let untouched = Collected<RemoteAudioFrame>()
        let sink = try RemoteAudioSink(format: format, processor: .noiseSuppression()) { cleaned.append($0) }
        let plain = try RemoteAudioSink(format: format) { untouched.append($0) }
        for packet in packets {
            sink.receive(packet)
            plain.receive(packet)
        }
        let after = cleaned.all.flatMap { $0.int16Samples ?? [] }
        let before = untouched.all.flatMap { $0.int16Samples ?? [] }
        // The decoder's delay shifts the tone against the clean reference's gating by a few
        // milliseconds; the fit absorbs the phase, and the gain shows on both sides alike.
        let window = 96_000..<(min(after.count, before.count) - 24_000)
        let gain = signal.snr(of: after, over: window) - signal.snr(of: before, over: window)
        print("speex render processor after Opus: SNR +\(String(format: "%.1f", gain)) dB")
        #expect(gain >= 6)
    }

    /// The engine's render default, as the channel's core gives it to each audio track it
    /// subscribes (and to none of its video tracks).
    @Test func theChannelCoreGivesAudioTracksTheDefault() async throws {
        let buffer = EventBuffer<ChannelEvent>()
        let events = buffer.stream
        let seen = Seen()
        let core = ChannelCore(room: "r", statsInterval: .seconds(1), rawSink: nil, events: buffer, lanes: nil,
                               renderProcessor: Self.spyFactory(seen))
        core.transition(to: .connecting)
        core.transition(to: .connected)
        core.receive(.participantJoined(id: "alice", display: "Alice", at: Date()))
        core.receive(.trackAdded(participantID: "alice", kind: .audio, codec: .opus))
        var iterator = events.makeAsyncIterator()
        var track: RemoteTrack?
        while track == nil, let event = await iterator.next() {
            if case .trackSubscribed(_, let subscribed) = event { track = subscribed }
        }
        let audio = try #require(track)
        let frames = Collected<RemoteAudioFrame>()
        audio.add(try RemoteAudioSink(format: RemoteAudioFormat()) { frames.append($0) })
        for packet in try Media.opusPackets(count: 10, channels: 1, tone: Media.sine(frequency: 440)) {
            core.receive(.frame(packet))
        }
        #expect(frames.count == 10)
        #expect(seen.count == 10, "every frame went through the default processor")
        core.finish()
    }

    /// The documentation's examples, as written there.
    @Test func theDocumentedExamplesWork() throws {
        let voice = try AudioProcessorFactory.chain([.noiseSuppression(), .gain(.init(gainDecibels: 6))])
        let defaults = AudioProcessingDefaults(capture: try .automaticGainControl(), render: try .gain(.init(gainDecibels: 6)))
        let format = try AudioProcessingFormat(sampleRate: 48_000, channels: 2, frameDuration: .milliseconds20)
        for factory in [voice, try #require(defaults.capture), try #require(defaults.render)] {
            var processor = try factory.makeProcessor(for: format)
            var frame = [Int16](repeating: 100, count: format.samplesPerFrame)
            try processor.process(&frame)
        }
        #expect(voice.name == "noise suppression → gain 6.0 dB")
        let engine = AgentEngine(loopCount: 1, audioProcessing: defaults)
        #expect(engine.audioProcessing.capture?.name == "automatic gain control")
    }
}
