import Foundation

/// Options of `agentd-bench speech`: offline, no lab (the recognizers are fed in process).
struct SpeechOptions: Sendable {
    var espeak = "/usr/bin/espeak-ng"
    var voice = "en-us+klatt2"
    var wordsPerMinute = 150
    /// The Python that runs the example command adapter; nil or missing leaves that engine out.
    var python: String?
    var adapter = "contrib/speech/pocketsphinx_adapter.py"

    static let usage = """
        usage: agentd-bench speech [--python PATH] [--adapter PATH] [--voice V] [--wpm N] [--espeak PATH]

          Word error rate of each speech engine over 20 fixed sentences that espeak-ng says
          (voice --voice, default en-us+klatt2, --wpm 150), resampled to 16 kHz and fed as one
          stream in 20 ms chunks, each sentence between 0.5 s and 1 s of silence, with an end of
          utterance after each: pocketsphinx in process (free-form, Debian's en-us model), and
          the command engine running --adapter (contrib/speech/pocketsphinx_adapter.py, the
          PyPI pocketsphinx 5 wheel) with --python. Prints errors (substitutions, deletions,
          insertions), WER and CPU per audio second (real-time factor). Needs no lab.
        """

    init(arguments: [String]) throws(BenchError) {
        var cursor = ArgumentCursor(arguments)
        while let argument = cursor.next() {
            switch argument {
            case "--espeak": espeak = try cursor.value(argument)
            case "--voice": voice = try cursor.value(argument)
            case "--wpm": wordsPerMinute = try cursor.integer(argument, in: 80...400)
            case "--python": python = try cursor.value(argument)
            case "--adapter": adapter = try cursor.value(argument)
            case "-h", "--help":
                Console.line(Self.usage)
                exit(0)
            default: throw BenchError("unknown option '\(argument)' (see agentd-bench speech --help)")
            }
        }
        guard FileManager.default.isExecutableFile(atPath: espeak) else { throw BenchError("no espeak-ng at \(espeak) (--espeak)") }
    }
}
