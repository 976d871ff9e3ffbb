@testable import Speech
import Testing

/// The child's result lines, field by field: what is a result, an end, ignored, or refused.
@Suite struct CommandRecognizerLineTests {
    static func parse(_ line: String) throws(SpeechRecognizerError) -> CommandRecognizerLine {
        try CommandRecognizerLine.parse(line, maxBytes: 65_536)
    }

    @Test("a result with and without type and confidence, an end, and an unknown type")
    func accepted() throws {
        #expect(try Self.parse(#"{"text":"hi there","final":true,"start_ms":10,"end_ms":900,"confidence":0.25}"#)
            == .result(SpeechResult(text: "hi there", startMs: 10, endMs: 900, isFinal: true, confidence: 0.25)))
        #expect(try Self.parse(#"{"type":"result","text":"","final":false,"start_ms":0,"end_ms":0}"#)
            == .result(SpeechResult(text: "", startMs: 0, endMs: 0, isFinal: false)))
        // Whole doubles are whole milliseconds; confidence 1 may come as an integer; null is none.
        #expect(try Self.parse(#"{"text":"a","final":false,"start_ms":5.0,"end_ms":6,"confidence":1}"#)
            == .result(SpeechResult(text: "a", startMs: 5, endMs: 6, isFinal: false, confidence: 1)))
        #expect(try Self.parse(#"{"text":"a","final":false,"start_ms":5,"end_ms":6,"confidence":null}"#)
            == .result(SpeechResult(text: "a", startMs: 5, endMs: 6, isFinal: false)))
        #expect(try Self.parse(#"{"type":"end"}"#) == .endOfUtterance)
        #expect(try Self.parse(#"{"type":"log","message":"loaded"}"#) == .ignored)
    }

    @Test("refused: not JSON, not an object, missing or mistyped fields, times out of order or range, confidence outside 0...1")
    func refused() {
        let lines = [
            "hello", "[1]", #""text""#, #"{"text":"a","final":true}"#, #"{"text":1,"final":true,"start_ms":0,"end_ms":1}"#,
            #"{"text":"a","final":"yes","start_ms":0,"end_ms":1}"#, #"{"text":"a","final":true,"start_ms":9,"end_ms":1}"#,
            #"{"text":"a","final":true,"start_ms":-1,"end_ms":1}"#, #"{"text":"a","final":true,"start_ms":0,"end_ms":86400001}"#,
            #"{"text":"a","final":true,"start_ms":0.5,"end_ms":1}"#, #"{"text":"a","final":true,"start_ms":0,"end_ms":1,"confidence":1.5}"#,
            #"{"text":"a","final":true,"start_ms":0,"end_ms":1,"confidence":"high"}"#,
        ]
        for line in lines {
            do {
                let parsed = try Self.parse(line)
                Issue.record("\(line) parsed as \(parsed)")
            } catch {
                guard case .childProtocol = error else {
                    Issue.record("\(line): \(error)")
                    continue
                }
            }
        }
    }

    @Test("the command grammar lowercases, drops repeats and refuses JSGF syntax in a phrase")
    func grammar() throws {
        let grammar = try CommandGrammar(phrases: ["Turn ON  the lights", "stop", "turn on the lights", "don't stop"])
        #expect(grammar.jsgf == "#JSGF V1.0;\ngrammar commands;\npublic <command> = turn on the lights | stop | don't stop;\n")
        for phrase in ["stop | go", "<rule>", "", "lights;"] {
            #expect(throws: SpeechRecognizerError.self) { try CommandGrammar(phrases: [phrase]) }
        }
        #expect(throws: SpeechRecognizerError.self) { try CommandGrammar(phrases: []) }
    }
}
