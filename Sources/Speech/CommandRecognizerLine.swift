import AgentCore

/// One line a command recognizer child writes on stdout (docs/speech-command-protocol.md):
///
///     {"text":"turn on the lights","final":true,"start_ms":1200,"end_ms":2310,"confidence":0.8}
///     {"type":"end"}
///
/// A line without `type` (or with `"type":"result"`) is a result; `{"type":"end"}` says the
/// child has written every result of the utterance we ended. Other types are ignored, so an
/// adapter may add its own (a `"log"` line) without breaking older hosts.
public enum CommandRecognizerLine: Equatable, Sendable {
    case result(SpeechResult)
    case endOfUtterance
    case ignored

    /// Times beyond a day of audio are nonsense from a child, refused rather than carried on.
    public static let maxMilliseconds: Int64 = 86_400_000

    /// Parses one line (without its newline); `maxBytes` bounds the JSON read. Public for the
    /// fuzz target (agentd-fuzz speech-command-line): the line comes from a program of the user's.
    public static func parse(_ line: String, maxBytes: Int) throws(SpeechRecognizerError) -> CommandRecognizerLine {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line, maxDepth: 8, maxBytes: maxBytes)
        } catch {
            throw .childProtocol(reason: "not JSON (\(error)): \(line.prefix(80))", stderrTail: "")
        }
        guard value.objectValue != nil else { throw .childProtocol(reason: "not a JSON object: \(line.prefix(80))", stderrTail: "") }
        switch value["type"]?.stringValue {
        case "end": return .endOfUtterance
        case nil, "result": return .result(try result(value, line: line))
        default: return .ignored
        }
    }

    private static func result(_ value: JSONValue, line: String) throws(SpeechRecognizerError) -> SpeechResult {
        func refuse(_ reason: String) -> SpeechRecognizerError {
            .childProtocol(reason: "\(reason): \(line.prefix(80))", stderrTail: "")
        }
        guard let text = value["text"]?.stringValue else { throw refuse("a result without a string \"text\"") }
        guard let isFinal = value["final"]?.boolValue else { throw refuse("a result without a boolean \"final\"") }
        guard let start = value["start_ms"]?.integerValue, let end = value["end_ms"]?.integerValue,
              (0...maxMilliseconds).contains(start), (start...maxMilliseconds).contains(end)
        else { throw refuse("a result without whole \"start_ms\" <= \"end_ms\" in 0...\(maxMilliseconds)") }
        var confidence: Double?
        if let given = value["confidence"] {
            switch given {
            case .double(let number) where (0...1).contains(number): confidence = number
            case .integer(let number) where number == 0 || number == 1: confidence = Double(number)
            case .null: confidence = nil
            default: throw refuse("a \"confidence\" outside 0...1")
            }
        }
        return SpeechResult(text: text, startMs: start, endMs: end, isFinal: isFinal, confidence: confidence)
    }
}
