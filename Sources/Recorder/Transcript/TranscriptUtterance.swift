/// One thing someone said, on the recording's timeline: a line of `transcript.jsonl` and a cue
/// of `captions.vtt`.
public struct TranscriptUtterance: Sendable, Equatable {
    /// The participant's name in the recording (their files' name).
    public var participant: String
    /// Milliseconds from the recording's t=0; `endMs` is past the last word.
    public var startMs: Int64
    public var endMs: Int64
    public var text: String

    public init(participant: String, startMs: Int64, endMs: Int64, text: String) {
        self.participant = participant
        self.startMs = startMs
        self.endMs = endMs
        self.text = text
    }
}
