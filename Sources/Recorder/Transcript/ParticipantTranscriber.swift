import Agent
import Foundation
import Speech

/// One participant's speech to text: their decoded timeline audio (48 kHz mono blocks at
/// timeline sample positions) resampled to 16 kHz and fed to their own ``SpeechRecognizer``;
/// final results come back as ``TranscriptUtterance``s on the recording's timeline.
///
/// **Time.** A recognizer's times count from the first sample it was fed. The audio fed stays
/// continuous with the timeline: a gap of up to ``maximumFilledGapMs`` (loss, DTX, a pause in
/// the blocks) is fed as silence; a longer one (they stopped publishing, our reconnect) ends the
/// utterance and starts a new stretch, remembered as (stream ms, timeline ms) so each result is
/// mapped through the stretch it began in.
///
/// Not thread-safe: the transcriber's queue owns it.
final class ParticipantTranscriber {
    static let maximumFilledGapMs: Int64 = 2000

    let name: String
    private let recognizer: any SpeechRecognizer
    private let resampler: AudioResampler
    /// Stretches of continuous audio: where each begins in the fed stream and on the timeline.
    private var stretches: [(streamMs: Int64, timelineMs: Int64)] = []
    /// 16 kHz samples fed so far, and the 48 kHz timeline sample the next block should start at.
    private var fedSamples: Int64 = 0
    private var nextTimelineSample: Int64?
    private var finished = false

    init(name: String, recognizer: any SpeechRecognizer) throws(AudioResamplerError) {
        self.name = name
        self.recognizer = recognizer
        resampler = try AudioResampler(inputRate: 48_000, outputRate: SpeechAudio.sampleRate, channels: 1)
    }

    /// One block of their audio at timeline sample `sample` (48 kHz). Returns finished utterances.
    func add(_ pcm: [Int16], atSample sample: Int64) throws -> [TranscriptUtterance] {
        guard !finished, !pcm.isEmpty else { return [] }
        var results: [SpeechResult] = []
        if let expected = nextTimelineSample {
            let gap = sample - expected
            if gap < 0 {
                // Overlaps what was fed (a late block): the overlap is dropped.
                let overlap = Int(min(Int64(pcm.count), -gap))
                guard overlap < pcm.count else { return [] }
                return try add(Array(pcm[overlap...]), atSample: expected)
            }
            if gap > Self.maximumFilledGapMs * 48 {
                results += try recognizer.endUtterance()
                startStretch(atSample: sample)
            } else if gap > 0 {
                results += try feed([Int16](repeating: 0, count: Int(gap)))
            }
        } else {
            startStretch(atSample: sample)
        }
        results += try feed(pcm)
        nextTimelineSample = sample + Int64(pcm.count)
        return utterances(results)
    }

    /// Ends the stream: the last utterance's final result.
    func finish() throws -> [TranscriptUtterance] {
        guard !finished else { return [] }
        finished = true
        var results = try feed(try resampler.flushInt16(), resampled: true)
        results += try recognizer.finish()
        return utterances(results)
    }

    private func startStretch(atSample sample: Int64) {
        stretches.append((SpeechAudio.milliseconds(ofSample: fedSamples), max(0, sample / 48)))
    }

    private func feed(_ pcm: [Int16], resampled: Bool = false) throws -> [SpeechResult] {
        let samples = resampled ? pcm : try resampler.process(pcm)
        guard !samples.isEmpty else { return [] }
        fedSamples += Int64(samples.count)
        return try recognizer.feed(samples)
    }

    /// Final results, mapped onto the timeline through the stretch each began in.
    private func utterances(_ results: [SpeechResult]) -> [TranscriptUtterance] {
        results.compactMap { result in
            let text = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard result.isFinal, !text.isEmpty else { return nil }
            let stretch = stretches.last { $0.streamMs <= result.startMs } ?? stretches.first ?? (0, 0)
            let offset = stretch.timelineMs - stretch.streamMs
            return TranscriptUtterance(participant: name, startMs: max(0, result.startMs + offset),
                                       endMs: max(0, result.endMs + offset), text: text)
        }
    }
}

