import Synchronization

/// The sink ``ChannelSpeakers`` puts on a remote audio track: it reads each frame's RFC 6464
/// level when the sender provides one (no decoding at all), and otherwise decodes the track
/// (16 kHz mono, 10 ms frames) and measures it; either way one ``VoiceActivityDetector`` decides.
///
/// The choice is per frame: a track whose packets lose the extension midway falls back to
/// decoding, with the decoder made on first need.
final class SpeakerSink: RemoteTrackSink {
    private struct State {
        var detector: VoiceActivityDetector
        var decoder: RemoteAudioSink?
        var lastTimestamp: Int64?
        var finished = false
    }

    private let state: Mutex<State>
    private let report: @Sendable (_ voiced: Bool, _ speaking: Bool, _ levelDBFS: Double, _ durationMs: Int64, _ fromHeader: Bool) -> Void

    init(settings: VoiceActivityDetector.Settings,
         report: @escaping @Sendable (_ voiced: Bool, _ speaking: Bool, _ levelDBFS: Double, _ durationMs: Int64, _ fromHeader: Bool) -> Void) {
        state = Mutex(State(detector: VoiceActivityDetector(sampleRate: 16_000, settings: settings)))
        self.report = report
    }

    func receive(_ frame: RemoteFrame) {
        if let byte = frame.audioLevel {
            let verdict = state.withLock { state -> (Bool, Bool, Double, Int64)? in
                guard !state.finished else { return nil }
                // The frame's length from the RTP clock (Opus packets are 2.5 to 120 ms); 20 ms
                // for the first one or after a jump.
                let delta = state.lastTimestamp.map { frame.rtpTimestamp - $0 } ?? 960
                state.lastTimestamp = frame.rtpTimestamp
                let durationMs = (1...5760).contains(delta) ? delta / 48 : 20
                let level = -Double(byte & 0x7F)
                state.detector.process(levelDBFS: level, durationMs: durationMs)
                return (state.detector.lastFrameVoiced, state.detector.isSpeaking, level, durationMs)
            }
            if let (voiced, speaking, level, durationMs) = verdict { report(voiced, speaking, level, durationMs, true) }
            return
        }
        decoder()?.receive(frame)
    }

    func frameLost() {}

    func resume() {
        state.withLock { $0.lastTimestamp = nil }
        state.withLock { $0.decoder }?.resume()
    }

    func finish() {
        let decoder = state.withLock { state -> RemoteAudioSink? in
            state.finished = true
            return state.decoder
        }
        decoder?.finish()
    }

    /// The decoding fallback, made on first need.
    private func decoder() -> RemoteAudioSink? {
        state.withLock { state -> RemoteAudioSink? in
            guard !state.finished else { return nil }
            if let decoder = state.decoder { return decoder }
            guard let format = try? RemoteAudioFormat(sampleRate: 16_000, channels: 1, frameDuration: .milliseconds10) else { return nil }
            let decoder = try? RemoteAudioSink(format: format) { [weak self] frame in self?.decoded(frame) }
            state.decoder = decoder
            return decoder
        }
    }

    private func decoded(_ frame: RemoteAudioFrame) {
        guard let samples = frame.int16Samples else { return }
        let verdict = state.withLock { state -> (Bool, Bool, Double)? in
            guard !state.finished else { return nil }
            state.detector.process(samples)
            return (state.detector.lastFrameVoiced, state.detector.isSpeaking, state.detector.lastLevelDBFS)
        }
        if let (voiced, speaking, level) = verdict { report(voiced, speaking, level, 10, false) }
    }
}
