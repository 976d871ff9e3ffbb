import Foundation
import Synchronization

/// Offline speech recognition with pocketsphinx (Debian `libpocketsphinx3`, model
/// `pocketsphinx-en-us`): free-form dictation or a closed command set, streaming.
///
/// Utterances are cut by pocketsphinx's own speech detector: speech starts an utterance, and
/// half a second of non-speech (`-vad_postspeech`) ends it with a final result. While someone
/// speaks, a partial result comes every ``PocketSphinxConfiguration/partialIntervalMs`` of audio
/// when the hypothesis changed. Long silence is not decoded: pocketsphinx drops it before the
/// search (`-remove_silence`), and the utterance is restarted every few seconds of it so the
/// decoder's lattice stays small.
///
/// Word times come from pocketsphinx's frame numbers, which count 10 ms frames from the first
/// sample fed, silence included (the decoder drops silence from its search, not from its clock).
///
/// Cost (`scripts/bench speech`, release, one EPYC core): free-form takes about 0.22 CPU seconds
/// per second of audio with speech in it, so a core transcribes about four participants; its
/// word error rate on the bench's espeak-ng sentences is about 32 %, and the first utterance a
/// decoder hears is decoded worse than the ones after it. Command mode is far cheaper and, on a
/// set of ten commands, got 20 of 20 right in the tests.
public final class PocketSphinxRecognizer: SpeechRecognizer {
    public let configuration: PocketSphinxConfiguration
    private let state: Mutex<PocketSphinxStream>

    public init(configuration: PocketSphinxConfiguration = .init()) throws(SpeechRecognizerError) {
        let configuration = try configuration.validated()
        var arguments = ["-hmm", configuration.acousticModel, "-dict", configuration.dictionary,
                         "-vad_threshold", String(configuration.vadThreshold),
                         // Dither keeps digital silence (DTX, a muted track) from reading as -inf dB;
                         // a fixed seed makes the same audio decode the same way every time.
                         "-dither", "yes", "-seed", "1"]
        if configuration.mode == .freeForm { arguments += ["-lm", configuration.languageModel] }
        let decoder = try PocketSphinxDecoder(arguments: arguments)
        switch configuration.mode {
        case .freeForm:
            break
        case .commands(let phrases):
            let grammar = try CommandGrammar(phrases: phrases)
            let unknown = grammar.words.filter { !decoder.hasWord($0) }.sorted()
            guard unknown.isEmpty else { throw .unknownWords(unknown) }
            try decoder.useGrammar(grammar.jsgf, name: CommandGrammar.ruleName)
        }
        try decoder.startUtterance()
        self.configuration = configuration
        state = Mutex(PocketSphinxStream(decoder: decoder, configuration: configuration))
    }

    public func feed(_ samples: [Int16]) throws(SpeechRecognizerError) -> [SpeechResult] {
        try state.withLock { stream throws(SpeechRecognizerError) in try stream.feed(samples) }
    }

    public func endUtterance() throws(SpeechRecognizerError) -> [SpeechResult] {
        try state.withLock { stream throws(SpeechRecognizerError) in try stream.endUtterance() }
    }

    public func finish() throws(SpeechRecognizerError) -> [SpeechResult] {
        try state.withLock { stream throws(SpeechRecognizerError) in try stream.finish() }
    }
}
