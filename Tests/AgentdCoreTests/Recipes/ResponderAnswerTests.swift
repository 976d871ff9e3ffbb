import Testing

@testable import AgentdCore

/// A responder program's answer lines, and a rule's reply with its placeholders filled.
@Suite struct ResponderAnswerTests {
    @Test func linesGiveAnswers() throws {
        #expect(try ResponderAnswer(line: #"{"say": "hi"}"#) == ResponderAnswer(say: "hi"))
        #expect(try ResponderAnswer(line: #"{"send": {"b": 1, "a": "x"}, "action": "leave"}"#) == ResponderAnswer(send: #"{"a":"x","b":1}"#, leave: true))
        #expect(try ResponderAnswer(line: #"{"say": null, "send": "plain"}"#) == ResponderAnswer(send: "plain"))
    }

    @Test("bad lines are typed errors", arguments: [
        ("hello", "notJSON"),
        ("[1]", "notAnObject"),
        (#"{"speak": "x"}"#, "unknownKey"),
        (#"{"say": 3}"#, "badValue"),
        (#"{"say": ""}"#, "badValue"),
        (#"{"send": []}"#, "badValue"),
        (#"{"action": "jump"}"#, "badValue"),
        ("{}", "empty"),
        (#"{"say": ""# + String(repeating: "a", count: 70_000) + #""}"#, "tooLong"),
        (String(repeating: "[", count: 40), "notJSON"),
    ])
    func badLines(line: String, kind: String) {
        #expect {
            _ = try ResponderAnswer(line: line)
        } throws: { error in
            Self.kind(of: error as? ResponderLineError) == kind
        }
    }

    static func kind(of error: ResponderLineError?) -> String {
        switch error {
        case .tooLong?: "tooLong"
        case .notJSON?: "notJSON"
        case .notAnObject?: "notAnObject"
        case .unknownKey?: "unknownKey"
        case .badValue?: "badValue"
        case .empty?: "empty"
        case nil: "none"
        }
    }

    @Test func rulesFillPlaceholdersOnce() {
        let reply = Recipe.Reply(say: "{name} asked {1}; {unknown} {", send: .json(.object(["echo": .string("{text}")])), action: .leave)
        let answer = ResponderAnswer(reply, values: ["name": "Ann", "1": "{name}", "text": "what \"time\""])
        #expect(answer.say == "Ann asked {name}; {unknown} {", "a value holding {…} is not filled again")
        #expect(answer.send == #"{"echo":"what \"time\""}"#, "the JSON stays valid")
        #expect(answer.leave)
    }
}
