import AgentMedia
import Foundation
import Speech
import TestSupport

/// Speech made for the tests by espeak-ng (house rule 11): its Klatt voice, which pocketsphinx's
/// acoustic model hears far better than the default formant voice, resampled from espeak's
/// 22.05 kHz to the recognizers' 16 kHz with our own AudioResampler.
enum SpokenAudio {
    static let voice = "en-us+klatt2"

    static func say(_ text: String, wordsPerMinute: Int = 150) async throws -> [Int16] {
        let scratch = try ScratchDirectory("speech")
        let wav = scratch.path("spoken.wav")
        let run = try await runTool("/usr/bin/espeak-ng", ["-v", voice, "-s", String(wordsPerMinute), "-w", wav, text])
        guard run.status == 0 else { throw ChildProcess.Failure(description: "espeak-ng exited \(run.status): \(run.errors)") }
        let reader = try SoundFileReader(path: wav)
        let resampler = try AudioResampler(inputRate: reader.info.sampleRate, outputRate: SpeechAudio.sampleRate, channels: 1)
        return try resampler.process(reader.readAll()) + resampler.flushInt16()
    }

    static func silence(milliseconds: Int) -> [Int16] {
        [Int16](repeating: 0, count: milliseconds * SpeechAudio.samplesPerMillisecond)
    }

    /// Feeds `samples` in `chunk`-sample pieces, as a track's 20 ms frames would come.
    static func feed(_ samples: [Int16], to recognizer: some SpeechRecognizer, chunk: Int = 320) throws -> [SpeechResult] {
        var results: [SpeechResult] = []
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + chunk)
            results += try recognizer.feed(Array(samples[offset..<end]))
            offset = end
        }
        return results
    }
}
