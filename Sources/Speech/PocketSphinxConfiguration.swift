import Foundation

/// How a ``PocketSphinxRecognizer`` decodes: which model, and free-form dictation or a closed set
/// of commands.
///
/// Commands use a JSGF grammar (one public rule of alternatives) rather than keyword spotting
/// (`-kws`): a grammar makes the decoder pick the best of the phrases for every utterance, which
/// is what a command set needs, with no per-phrase detection threshold to tune. Keyword spotting
/// suits one wake word listened for all day; it is not offered here. Nor is a grammar of the
/// caller's: sphinxbase's JSGF lexer echoes what it cannot read to our stdout (flex's default
/// rule), which would corrupt agentd's `--json` output, so only grammars we write are given to it.
public struct PocketSphinxConfiguration: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        /// Dictation with the model's trigram language model (en-us.lm.bin).
        case freeForm
        /// One of these phrases per utterance (lowercase words of the dictionary, e.g. "turn on
        /// the lights"). Built into a JSGF grammar; every word is checked against the dictionary.
        case commands([String])
    }

    /// The directory Debian's `pocketsphinx-en-us` installs.
    public static let debianModelDirectory = "/usr/share/pocketsphinx/model/en-us"

    /// Holds `en-us/` (the acoustic model), `en-us.lm.bin` and `cmudict-en-us.dict`.
    public var modelDirectory: String
    public var mode: Mode
    /// How often (in audio time) a partial result is looked for while someone speaks.
    public var partialIntervalMs: Int
    /// An utterance is cut (final result) after this much speech without a pause.
    public var maxUtteranceMs: Int
    /// pocketsphinx's speech detector threshold (`-vad_threshold`, in dB over the noise floor).
    /// Its default of 2 takes the first frames of digital silence for speech; 3 does not, and
    /// still hears speech at -30 dBFS.
    public var vadThreshold: Double

    public init(modelDirectory: String = debianModelDirectory, mode: Mode = .freeForm, partialIntervalMs: Int = 300,
                maxUtteranceMs: Int = 20_000, vadThreshold: Double = 3.0) {
        self.modelDirectory = modelDirectory
        self.mode = mode
        self.partialIntervalMs = partialIntervalMs
        self.maxUtteranceMs = maxUtteranceMs
        self.vadThreshold = vadThreshold
    }

    var acousticModel: String { (modelDirectory as NSString).appendingPathComponent("en-us") }
    var languageModel: String { (modelDirectory as NSString).appendingPathComponent("en-us.lm.bin") }
    var dictionary: String { (modelDirectory as NSString).appendingPathComponent("cmudict-en-us.dict") }

    /// Checks the settings and that the model files are there.
    func validated() throws(SpeechRecognizerError) -> Self {
        guard (50...5_000).contains(partialIntervalMs) else { throw .invalidConfiguration("partialIntervalMs must be 50-5000") }
        guard (1_000...120_000).contains(maxUtteranceMs) else { throw .invalidConfiguration("maxUtteranceMs must be 1000-120000") }
        guard vadThreshold.isFinite, (0...20).contains(vadThreshold) else { throw .invalidConfiguration("vadThreshold must be 0-20") }
        var required = [acousticModel, dictionary]
        if mode == .freeForm { required.append(languageModel) }
        for path in required where !FileManager.default.fileExists(atPath: path) { throw .modelMissing(path: path) }
        if case .commands(let phrases) = mode {
            guard !phrases.isEmpty else { throw .invalidConfiguration("the command list is empty") }
        }
        return self
    }
}
