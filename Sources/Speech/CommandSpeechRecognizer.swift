import Synchronization

/// Speech recognition by a program of the user's (Whisper, Vosk, a cloud bridge): a child
/// process that reads audio frames as JSON lines on stdin and writes results as JSON lines on
/// stdout (docs/speech-command-protocol.md; contrib/speech/ has an example).
///
/// The child is started by `init` and kept for the stream. Audio is batched into
/// ``CommandRecognizerConfiguration/frameMs`` frames; results the child wrote meanwhile come
/// back from the next ``feed(_:)``. ``endUtterance()`` sends `{"type":"end"}` and waits for the
/// child's `{"type":"end"}`, so its final result comes back from that call. ``finish()`` also
/// closes the child's stdin and waits for it to exit.
///
/// Nothing here waits without a deadline: a child that dies, stops reading, stops answering
/// or writes garbage is killed and becomes a typed error (``SpeechRecognizerError``), and every
/// later call throws the same error.
public final class CommandSpeechRecognizer: SpeechRecognizer {
    public let configuration: CommandRecognizerConfiguration
    private let state: Mutex<CommandStream>

    public init(configuration: CommandRecognizerConfiguration) throws(SpeechRecognizerError) {
        let configuration = try configuration.validated()
        let child = try RecognizerChild(configuration: configuration)
        self.configuration = configuration
        state = Mutex(CommandStream(child: child, configuration: configuration))
    }

    public func feed(_ samples: [Int16]) throws(SpeechRecognizerError) -> [SpeechResult] {
        try state.withLock { stream throws(SpeechRecognizerError) in try stream.run { stream throws(SpeechRecognizerError) in try stream.feed(samples) } }
    }

    public func endUtterance() throws(SpeechRecognizerError) -> [SpeechResult] {
        try state.withLock { stream throws(SpeechRecognizerError) in try stream.run { stream throws(SpeechRecognizerError) in try stream.endUtterance() } }
    }

    public func finish() throws(SpeechRecognizerError) -> [SpeechResult] {
        try state.withLock { stream throws(SpeechRecognizerError) in try stream.run { stream throws(SpeechRecognizerError) in try stream.finish() } }
    }
}
