/// How a ``CommandSpeechRecognizer`` runs its child and how long it waits for it.
public struct CommandRecognizerConfiguration: Sendable, Equatable {
    /// The program: a path, or a name looked up on `PATH`.
    public var executable: String
    public var arguments: [String]
    /// The child's whole environment; nil passes ours on.
    public var environment: [String: String]?
    /// Audio is sent in frames of this many milliseconds (the last one of an utterance shorter).
    public var frameMs: Int
    /// How long a write of audio may wait for the child to read, and how long the child has to
    /// exit once its stdin is closed.
    public var responseTimeoutMs: Int
    /// How long the child has to answer an end of utterance with `{"type":"end"}`: a Whisper
    /// child decodes the whole utterance then, which can take seconds.
    public var endTimeoutMs: Int
    /// The longest line read from the child; a longer one is a protocol error.
    public var maxLineBytes: Int
    /// How much of the child's stderr is kept (its last bytes) for error messages.
    public var stderrTailBytes: Int

    public init(executable: String, arguments: [String] = [], environment: [String: String]? = nil, frameMs: Int = 100,
                responseTimeoutMs: Int = 5_000, endTimeoutMs: Int = 30_000, maxLineBytes: Int = 65_536, stderrTailBytes: Int = 4_096) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.frameMs = frameMs
        self.responseTimeoutMs = responseTimeoutMs
        self.endTimeoutMs = endTimeoutMs
        self.maxLineBytes = maxLineBytes
        self.stderrTailBytes = stderrTailBytes
    }

    func validated() throws(SpeechRecognizerError) -> Self {
        guard !executable.isEmpty else { throw .invalidConfiguration("the recognizer command is empty") }
        guard (10...1_000).contains(frameMs) else { throw .invalidConfiguration("frameMs must be 10-1000") }
        guard (100...600_000).contains(responseTimeoutMs) else { throw .invalidConfiguration("responseTimeoutMs must be 100-600000") }
        guard (100...600_000).contains(endTimeoutMs) else { throw .invalidConfiguration("endTimeoutMs must be 100-600000") }
        guard (256...(16 << 20)).contains(maxLineBytes) else { throw .invalidConfiguration("maxLineBytes must be 256 B-16 MiB") }
        guard (0...(1 << 20)).contains(stderrTailBytes) else { throw .invalidConfiguration("stderrTailBytes must be 0-1 MiB") }
        return self
    }
}
