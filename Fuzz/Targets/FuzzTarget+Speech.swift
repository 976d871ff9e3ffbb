import Speech

extension FuzzTarget {
    /// One stdout line of a command recognizer child (docs/speech-command-protocol.md): whatever
    /// it is, a result that parses has times in order and in range, and a confidence in 0...1.
    public static let speechCommandLine = FuzzTarget(name: "speech-command-line", summary: "CommandRecognizerLine.parse (a command recognizer's stdout)",
                                                     maxInputLength: 4096) { bytes in
        let line = String(decoding: bytes, as: UTF8.self)
        guard case .result(let result)? = try? CommandRecognizerLine.parse(line, maxBytes: 4096) else { return }
        FuzzCheck.expect(0 <= result.startMs && result.startMs <= result.endMs && result.endMs <= CommandRecognizerLine.maxMilliseconds,
                         "times out of order or range: \(result)")
        FuzzCheck.expect(result.confidence.map { (0...1).contains($0) } ?? true, "confidence outside 0...1: \(result)")
    }
}
