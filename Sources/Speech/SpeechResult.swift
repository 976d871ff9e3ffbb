/// What a recognizer heard in one utterance so far (partial) or in all of it (final).
///
/// Times are milliseconds from the first sample fed to the recognizer, whatever the chunking:
/// the caller maps them to its own timeline (a recording's t=0) by adding when that first sample
/// was. A partial result is replaced by the next result of the same utterance; a final one
/// closes the utterance, and the next result belongs to a new one.
public struct SpeechResult: Sendable, Equatable {
    public var text: String
    public var startMs: Int64
    public var endMs: Int64
    public var isFinal: Bool
    /// The engine's own confidence in 0...1 when it gives one (pocketsphinx's posterior, a
    /// command engine's `confidence`); not comparable between engines.
    public var confidence: Double?
    /// Word times when the engine gives them; empty otherwise.
    public var words: [SpeechWord]

    public init(text: String, startMs: Int64, endMs: Int64, isFinal: Bool, confidence: Double? = nil, words: [SpeechWord] = []) {
        self.text = text
        self.startMs = startMs
        self.endMs = endMs
        self.isFinal = isFinal
        self.confidence = confidence
        self.words = words
    }
}
