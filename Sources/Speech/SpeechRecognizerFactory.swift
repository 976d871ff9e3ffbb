/// Makes one recognizer, one per speaker: a recorder's transcript and a captions bot each
/// need a stream of their own for every participant.
public typealias SpeechRecognizerFactory = @Sendable () throws -> any SpeechRecognizer

extension PocketSphinxRecognizer {
    /// Free-form pocketsphinx with Debian's US English model: the default engine.
    public static let factory: SpeechRecognizerFactory = { try PocketSphinxRecognizer() }
}
