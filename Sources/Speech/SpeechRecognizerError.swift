import Foundation

/// Why a recognizer could not start or stopped, with a stable ``code`` per case. Every failure of
/// an engine or a command child lands here: nothing traps, and a child that dies, hangs or talks
/// nonsense is one of these within its deadline.
public enum SpeechRecognizerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A model file or directory is not there.
    case modelMissing(path: String)
    /// A setting out of range, an empty command list, a grammar the engine refused.
    case invalidConfiguration(String)
    /// Command words the pronunciation dictionary does not have: the engine could never hear them.
    case unknownWords([String])
    /// The engine's C API failed (`operation` returned `status`).
    case engineFailed(operation: String, status: Int32)
    /// Audio fed, or an utterance ended, after ``SpeechRecognizer/finish()``.
    case finished
    /// The command child could not be started.
    case childSpawnFailed(command: String, reason: String)
    /// The command child exited (or closed its output) before the stream was finished, or exited
    /// non-zero at its end. `status` is its exit status, or 128 + the signal that ended it.
    case childExited(status: Int32, stderrTail: String)
    /// The command child did not read its audio or answer an end of utterance within `waitedMs`.
    /// It has been killed.
    case childHung(waitedMs: Int, stderrTail: String)
    /// The command child wrote something that is not a result line (not JSON, a line past the
    /// limit, a result without text or times). It has been killed.
    case childProtocol(reason: String, stderrTail: String)

    public var code: String {
        switch self {
        case .modelMissing: "model_missing"
        case .invalidConfiguration: "invalid_configuration"
        case .unknownWords: "unknown_words"
        case .engineFailed: "engine_failed"
        case .finished: "finished"
        case .childSpawnFailed: "child_spawn_failed"
        case .childExited: "child_exited"
        case .childHung: "child_hung"
        case .childProtocol: "child_protocol"
        }
    }

    public var description: String {
        switch self {
        case .modelMissing(let path): "speech model missing: \(path) (apt-get install pocketsphinx-en-us, or set the model directory)"
        case .invalidConfiguration(let reason): "invalid recognizer configuration: \(reason)"
        case .unknownWords(let words): "words not in the pronunciation dictionary: \(words.joined(separator: ", "))"
        case .engineFailed(let operation, let status): "speech engine failed: \(operation) returned \(status)"
        case .finished: "the recognizer has finished"
        case .childSpawnFailed(let command, let reason): "cannot start recognizer command \(command): \(reason)"
        case .childExited(let status, let tail): "recognizer command exited with status \(status)\(Self.tail(tail))"
        case .childHung(let waitedMs, let tail): "recognizer command did not answer within \(waitedMs) ms and was killed\(Self.tail(tail))"
        case .childProtocol(let reason, let tail): "recognizer command broke the protocol: \(reason)\(Self.tail(tail))"
        }
    }

    private static func tail(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "" : "; stderr: \(trimmed)"
    }
}
