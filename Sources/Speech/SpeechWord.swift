/// One recognized word with its place in the stream, for captions that highlight word by word
/// and for aligning a transcript to a recording. Times are milliseconds from the first sample fed.
public struct SpeechWord: Sendable, Equatable {
    public var text: String
    public var startMs: Int64
    public var endMs: Int64

    public init(text: String, startMs: Int64, endMs: Int64) {
        self.text = text
        self.startMs = startMs
        self.endMs = endMs
    }
}
