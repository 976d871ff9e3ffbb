import Agent

/// Brings pushed PCM to an ``AudioTrack``'s format: 48 kHz, the track's channel count, floats
/// clamped to -1 ... 1.
///
/// One resampler serves the current input format (rate and channels) and keeps its filter state
/// across pushes, so a stream cut into pushes of any size comes out seamless. When the format
/// changes, the old resampler's held-back tail is delivered first and a new one takes over.
/// Stereo pushed into a mono track is averaged down before resampling (half the work); mono into
/// a stereo track is copied to both sides after it.
struct PCMInputConverter {
    private struct Format: Equatable {
        var rate: Int
        /// Channels the resampler runs on: the fewer of input and track.
        var channels: Int
    }

    /// Live pushes get the cheapest converter (see ``AudioResampler/Quality/fastest``).
    static let quality = AudioResampler.Quality.fastest

    let outputChannels: Int
    private var resampler: AudioResampler?
    private var format: Format?
    /// The track's clear count this converter has seen; a new one means its history is stale.
    private var generation: UInt64 = 0

    init(outputChannels: Int) {
        self.outputChannels = outputChannels
    }

    /// Checks a push before any work: the rate, the channel count and whole frames.
    static func validate(sampleCount: Int, sampleRate: Int, channels: Int) throws(AudioTrackError) {
        guard AudioResampler.supportedRates.contains(sampleRate) else { throw .unsupportedInputRate(sampleRate) }
        guard channels == 1 || channels == 2 else { throw .unsupportedInputChannels(channels) }
        guard sampleCount % channels == 0 else { throw .partialFrame(sampleCount: sampleCount, channels: channels) }
    }

    /// The most samples ``convert(_:sampleRate:channels:generation:)`` can return for this push.
    func maximumOutputCount(sampleCount: Int, sampleRate: Int, channels: Int) -> Int {
        let next = Format(rate: sampleRate, channels: min(channels, outputChannels))
        var frames = AudioResampler.maximumOutputFrames(forInputFrames: sampleCount / channels,
                                                        inputRate: sampleRate, outputRate: AudioTrack.sampleRate,
                                                        quality: Self.quality)
        if let format, format != next {
            frames += AudioResampler.maximumOutputFrames(forInputFrames: 0, inputRate: format.rate,
                                                         outputRate: AudioTrack.sampleRate, quality: Self.quality)
        }
        return frames * outputChannels
    }

    /// Converts one validated push. `generation` is the track's clear count: when it moved on, the
    /// audio the resampler still holds belongs to what was cleared and is dropped.
    mutating func convert(_ samples: [Float], sampleRate: Int, channels: Int,
                          generation: UInt64) throws(AudioTrackError) -> [Float] {
        if generation != self.generation {
            resampler?.reset()
            self.generation = generation
        }
        let next = Format(rate: sampleRate, channels: min(channels, outputChannels))
        var converted: [Float] = []
        do throws(AudioResamplerError) {
            let active: AudioResampler
            if let resampler, next == format {
                active = resampler
            } else {
                if let resampler, let format { converted = fitted(try resampler.flush(), from: format.channels) }
                active = try AudioResampler(inputRate: sampleRate, outputRate: AudioTrack.sampleRate,
                                            channels: next.channels, quality: Self.quality)
                resampler = active
                format = next
            }
            let mixedDown = channels > next.channels ? Self.downmix(samples) : samples
            converted += fitted(try active.process(mixedDown), from: next.channels)
        } catch {
            throw .resampler(error)
        }
        return converted
    }

    // MARK: Helpers

    /// Clamps resampled samples and, for a stereo track fed mono, copies each to both sides.
    private func fitted(_ samples: [Float], from channels: Int) -> [Float] {
        guard channels < outputChannels else { return samples.map(PCMConversion.clamped) }
        var stereo = [Float](repeating: 0, count: samples.count * 2)
        for (index, sample) in samples.enumerated() {
            let value = PCMConversion.clamped(sample)
            stereo[2 * index] = value
            stereo[2 * index + 1] = value
        }
        return stereo
    }

    private static func downmix(_ stereo: [Float]) -> [Float] {
        stride(from: 0, to: stereo.count - 1, by: 2).map { (stereo[$0] + stereo[$0 + 1]) / 2 }
    }
}
