import AgentCore

/// What a voice agent's responder answers, ready to act on: a text to say, a data message to
/// send (its text), and whether to leave. The rules responder makes one from a matched rule's
/// ``Recipe/Reply``; the command responder's program writes one per JSON line:
///
///     {"say": "It is eight fifteen."}
///     {"send": {"type": "reply", "text": "hi"}}          (an object goes as compact JSON)
///     {"say": "Goodbye.", "action": "leave"}
///
/// A line is at most ``maximumLineBytes``, nests at most 16 deep, and must hold at least one of
/// `say`, `send` and `action`; anything else is a ``ResponderLineError`` (the line is skipped
/// and counted, the program goes on).
package struct ResponderAnswer: Sendable, Equatable {
    package static let maximumLineBytes = 65_536
    package static let maximumSayBytes = 4_096

    package var say: String?
    package var send: String?
    package var leave: Bool

    package init(say: String? = nil, send: String? = nil, leave: Bool = false) {
        self.say = say
        self.send = send
        self.leave = leave
    }

    /// A matched rule's reply with its placeholders filled from `values`.
    package init(_ reply: Recipe.Reply, values: [String: String]) {
        say = reply.say.map { Recipe.MessageTemplate.fill($0, values: values) }
        send = reply.send?.render(values: values)
        leave = reply.action == .leave
    }

    /// One line of a responder program's stdout.
    package init(line: String) throws(ResponderLineError) {
        guard line.utf8.count <= Self.maximumLineBytes else { throw .tooLong(bytes: line.utf8.count) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line, maxDepth: 16, maxBytes: Self.maximumLineBytes)
        } catch {
            throw .notJSON(error.description)
        }
        guard case .object(let object) = value else { throw .notAnObject }
        if let unknown = object.keys.sorted().first(where: { !["say", "send", "action"].contains($0) }) {
            throw .unknownKey(unknown)
        }
        switch object["say"] {
        case nil, .null?: say = nil
        case .string(let text)? where !text.isEmpty && text.utf8.count <= Self.maximumSayBytes: say = text
        case .some: throw .badValue(key: "say", expected: "a non-empty text of at most \(Self.maximumSayBytes) bytes")
        }
        switch object["send"] {
        case nil, .null?: send = nil
        case .string(let text)? where !text.isEmpty: send = text
        case .object(let fields)?: send = JSONValue.object(fields).serialized()
        case .some: throw .badValue(key: "send", expected: "a non-empty text or a JSON object")
        }
        switch object["action"] {
        case nil, .null?: leave = false
        case .string("leave")?: leave = true
        case .some: throw .badValue(key: "action", expected: "\"leave\"")
        }
        guard say != nil || send != nil || leave else { throw .empty }
    }
}

/// Why a responder program's line was skipped.
package enum ResponderLineError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLong(bytes: Int)
    case notJSON(String)
    case notAnObject
    case unknownKey(String)
    case badValue(key: String, expected: String)
    case empty

    package var description: String {
        switch self {
        case .tooLong(let bytes): "a line of \(bytes) bytes (at most \(ResponderAnswer.maximumLineBytes))"
        case .notJSON(let reason): "not JSON: \(reason)"
        case .notAnObject: "not a JSON object"
        case .unknownKey(let key): "unknown key \"\(key.prefix(40))\" (say, send, action)"
        case .badValue(let key, let expected): "\"\(key)\": expected \(expected)"
        case .empty: "no \"say\", \"send\" or \"action\""
        }
    }
}
