import AgentCore
import Foundation
import Synchronization

/// A channel's active speakers (``ChannelOptions/detectsActiveSpeakers``): a decoder and a
/// ``VoiceActivityDetector`` on each remote audio track, one ``ActiveSpeakerTracker`` over them
/// all, and each participant's speaking time for the statistics.
///
///     track's lane: RFC 6464 level, or Opus ─▶ decode (16 kHz mono, 10 ms) ─▶ VAD ─▶ level, voiced ─┐
///     transport loop, every 50 ms: ranking(now) ─ changed? ─▶ activeSpeakersChanged  ◀────┘ (one lock)
///
/// The tracker runs on a monotonic clock (ms since the channel started detecting), since the
/// tracks' media times cannot be compared with each other. A frame is stamped when its lane
/// decodes it, a few ms after it arrived; a track that stops sending (DTX, muted, gone) decays
/// out of the ranking because the evaluation runs on a timer, not only as frames come.
final class ChannelSpeakers: Sendable {
    private struct State {
        var tracker = ActiveSpeakerTracker(switchAfterMs: 0, pauseToleranceMs: 300)
        var ranking: [String] = []
        var speakingMs: [String: Int64] = [:]
        var source: [String: TrackStatistics.SpeakingSource] = [:]
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> Int64
    let settings: VoiceActivityDetector.Settings

    /// - Parameter clock: the tracker's clock in ms (tests drive it by hand); by default the
    ///   monotonic clock from now.
    init(settings: VoiceActivityDetector.Settings = .init(), clock: (@Sendable () -> Int64)? = nil) {
        self.settings = settings
        let origin = ContinuousClock.now
        self.clock = clock ?? { (ContinuousClock.now - origin).totalMilliseconds }
    }

    /// What the tracker's clock reads now.
    var nowMs: Int64 { clock() }

    /// The sink to put on `participantID`'s audio track (``SpeakerSink``).
    func sink(for participantID: String) -> SpeakerSink {
        SpeakerSink(settings: settings) { [weak self] voiced, speaking, level, durationMs, fromHeader in
            guard let self else { return }
            observe(participantID, voiced: voiced, speaking: speaking, levelDBFS: level, durationMs: durationMs, atMs: nowMs,
                    source: fromHeader ? .headerExtension : .decoded)
        }
    }

    /// One frame's verdict for `participantID`.
    func observe(_ participantID: String, voiced: Bool, speaking: Bool, levelDBFS: Double, durationMs: Int64, atMs ms: Int64,
                 source: TrackStatistics.SpeakingSource? = nil) {
        // The tracker's levels are mean squares of Int16 samples.
        let meanSquare = levelDBFS <= -120 ? 0 : 32_768.0 * 32_768.0 * pow(10, levelDBFS / 10)
        state.withLock { state in
            state.tracker.add(level: meanSquare, atMs: ms, durationMs: durationMs, from: participantID, voiced: voiced)
            if speaking { state.speakingMs[participantID, default: 0] += durationMs }
            if let source { state.source[participantID] = source }
        }
    }

    /// The new ranking if it changed since the last call, else nil.
    func evaluate(atMs ms: Int64) -> [String]? {
        state.withLock { state in
            let ranking = state.tracker.ranking(atMs: ms)
            guard ranking != state.ranking else { return nil }
            state.ranking = ranking
            return ranking
        }
    }

    /// `participantID` left: out of the ranking at the next evaluation (their speaking time stays).
    func remove(_ participantID: String) {
        state.withLock { $0.tracker.remove(participantID) }
    }

    /// Where `participantID`'s levels came from last.
    func source(of participantID: String) -> TrackStatistics.SpeakingSource? {
        state.withLock { $0.source[participantID] }
    }

    /// How long `participantID` has spoken (utterances as the VAD finds them, hangover included).
    func speakingTime(of participantID: String) -> Duration? {
        state.withLock { $0.speakingMs[participantID] }.map { .milliseconds($0) }
    }
}
