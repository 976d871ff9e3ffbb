import Foundation
import Speech
import TestSupport
import Testing

/// contrib/speech/pocketsphinx_adapter.py through the command engine, with the PyPI pocketsphinx
/// wheel (and the model inside it) that scripts/setup installs in .venv. Off the pool: the
/// adapter decodes for seconds while the recognizer waits on the calling thread.
@Suite(.offThePool, .enabled(if: Repository.hasPeers, "no .venv (run scripts/setup)"))
struct PocketSphinxAdapterTests {
    static let adapter = Repository.root.appendingPathComponent("contrib/speech/pocketsphinx_adapter.py").path

    @Test("the example adapter hears espeak-ng sentences, with partials and times inside the audio, and exits cleanly")
    func adapterTranscribes() async throws {
        let recognizer = try CommandSpeechRecognizer(configuration: .init(executable: Repository.python, arguments: [Self.adapter]))
        let sentences = ["good morning everyone and welcome", "what time is it"]
        var clock: Int64 = 0
        var finals: [SpeechResult] = []
        var partials = 0
        for sentence in sentences {
            let audio = SpokenAudio.silence(milliseconds: 300) + (try await SpokenAudio.say(sentence)) + SpokenAudio.silence(milliseconds: 300)
            let results = try SpokenAudio.feed(audio, to: recognizer) + recognizer.endUtterance()
            partials += results.filter { !$0.isFinal }.count
            let final = try #require(results.last { $0.isFinal }, "no final for '\(sentence)': \(results)")
            #expect(final.startMs >= clock && final.endMs <= clock + Int64(audio.count / 16), "\(final) outside \(clock) + \(audio.count / 16) ms")
            finals.append(final)
            clock += Int64(audio.count / 16)
        }
        #expect(try recognizer.finish().isEmpty)
        #expect(partials > 0)
        // The first utterance warms the decoder up (see PocketSphinxRecognizerTests); the second counts.
        let overlap = wordOverlap(finals[1].text, sentences[1])
        #expect(overlap >= 0.75, "heard '\(finals[1].text)' for '\(sentences[1])'")
    }
}
