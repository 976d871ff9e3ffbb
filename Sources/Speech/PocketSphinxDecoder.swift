import CPocketSphinx
import Foundation

/// The one Swift wrapper over pocketsphinx's decoder (Debian's 0.8+5prealpha C API): `deinit`
/// frees what `init` made. Not thread-safe; ``PocketSphinxRecognizer`` owns it behind its lock.
final class PocketSphinxDecoder {
    /// One word of the best path: the dictionary word and its inclusive frame range.
    struct Segment {
        var word: String
        var firstFrame: Int32
        var lastFrame: Int32
    }

    /// pocketsphinx's frame rate (`-frate`, left at its default): 100 frames a second.
    static let framesPerSecond: Int64 = 100

    /// sphinxbase logs to stderr by default, a screen of model details per decoder and a line
    /// per utterance. `err_set_logfp(NULL)` turns that off for the process, once. The `-logfn
    /// /dev/null` option is not used: each decoder given it swaps sphinxbase's global log FILE
    /// and closes the previous one, which another decoder's thread may be writing to.
    private static let loggingSilenced: Bool = {
        err_set_logfp(nil)
        return true
    }()

    private let decoder: OpaquePointer

    init(arguments: [String]) throws(SpeechRecognizerError) {
        _ = Self.loggingSilenced
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        defer { for argument in argv { free(argument) } }
        guard let count = Int32(exactly: argv.count),
              let config = argv.withUnsafeMutableBufferPointer({ cmd_ln_parse_r(nil, ps_args(), count, $0.baseAddress, 1) })
        else { throw .invalidConfiguration("pocketsphinx refused its arguments: \(arguments.joined(separator: " "))") }
        // ps_init keeps its own reference to the configuration.
        defer { cmd_ln_free_r(config) }
        guard let decoder = ps_init(config) else { throw .engineFailed(operation: "ps_init", status: -1) }
        self.decoder = decoder
    }

    deinit { ps_free(decoder) }

    /// True when the pronunciation dictionary has `word`.
    func hasWord(_ word: String) -> Bool {
        guard let pronunciation = ps_lookup_word(decoder, word) else { return false }
        free(pronunciation)
        return true
    }

    /// Adds a JSGF grammar as search `name` and makes it the active search.
    func useGrammar(_ jsgf: String, name: String) throws(SpeechRecognizerError) {
        guard ps_set_jsgf_string(decoder, name, jsgf) == 0 else { throw .invalidConfiguration("pocketsphinx refused the JSGF grammar") }
        let status = ps_set_search(decoder, name)
        guard status == 0 else { throw .engineFailed(operation: "ps_set_search", status: status) }
    }

    func startUtterance() throws(SpeechRecognizerError) {
        let status = ps_start_utt(decoder)
        guard status >= 0 else { throw .engineFailed(operation: "ps_start_utt", status: status) }
    }

    func endUtterance() throws(SpeechRecognizerError) {
        let status = ps_end_utt(decoder)
        guard status >= 0 else { throw .engineFailed(operation: "ps_end_utt", status: status) }
    }

    func process(_ samples: UnsafeBufferPointer<Int16>) throws(SpeechRecognizerError) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        let status = ps_process_raw(decoder, base, samples.count, 0, 0)
        guard status >= 0 else { throw .engineFailed(operation: "ps_process_raw", status: status) }
    }

    /// pocketsphinx's own speech detector: true from speech onset until a pause (`-vad_postspeech`).
    var inSpeech: Bool { ps_get_in_speech(decoder) != 0 }

    /// The best hypothesis so far (partial inside an utterance, final after its end).
    var hypothesis: String {
        var score: Int32 = 0
        guard let text = ps_get_hyp(decoder, &score) else { return "" }
        return String(cString: text)
    }

    /// The posterior probability of the last utterance's hypothesis, 0...1.
    var posterior: Double {
        let logProbability = ps_get_prob(decoder)
        guard let logMath = ps_get_logmath(decoder) else { return 0 }
        return min(1, max(0, logmath_exp(logMath, logProbability)))
    }

    /// The words of the best path with their frames. Frames count from the decoder's first
    /// sample, across utterances (pocketsphinx's feature frames, silence included).
    var segments: [Segment] {
        var found: [Segment] = []
        var segment = ps_seg_iter(decoder)
        while let current = segment {
            var first: Int32 = 0
            var last: Int32 = 0
            ps_seg_frames(current, &first, &last)
            let word = ps_seg_word(current).map { String(cString: $0) } ?? ""
            found.append(Segment(word: word, firstFrame: first, lastFrame: last))
            segment = ps_seg_next(current)
        }
        return found
    }
}
