import AgentdCore

extension FuzzTarget {
    /// One stdout line of a voice agent's command responder (docs/agent-responder-protocol.md):
    /// whatever it is, an answer that parses does something, and says a bounded text.
    public static let responderLine = FuzzTarget(name: "responder-line", summary: "ResponderAnswer(line:) (a command responder's stdout)",
                                                 maxInputLength: 8192) { bytes in
        let line = String(decoding: bytes, as: UTF8.self)
        guard let answer = try? ResponderAnswer(line: line) else { return }
        FuzzCheck.expect(answer.say != nil || answer.send != nil || answer.leave, "an answer that does nothing: \(answer)")
        FuzzCheck.expect((answer.say?.utf8.count ?? 0) <= ResponderAnswer.maximumSayBytes, "say of \(answer.say?.utf8.count ?? 0) bytes")
        FuzzCheck.expect(answer.say?.isEmpty != true && answer.send?.isEmpty != true, "an empty say or send: \(answer)")
    }

    /// A voice agent rule's `match` against a turn's words: a pattern either is refused with a
    /// reason or matches any text without trapping, its groups taken from the text. The input's
    /// first line is the pattern, the rest the text.
    public static let replyPattern = FuzzTarget(name: "reply-pattern", summary: "ReplyPattern (a rule's POSIX ERE) and firstMatch",
                                                maxInputLength: 8192) { bytes in
        let input = String(decoding: bytes, as: UTF8.self)
        let parts = input.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let source = parts.first, let pattern = try? ReplyPattern(String(source)) else { return }
        let text = parts.count > 1 ? String(parts[1]) : ""
        guard let groups = pattern.firstMatch(in: text) else { return }
        FuzzCheck.expect(groups.count == ReplyPattern.groupCount, "\(groups.count) groups")
        FuzzCheck.expect(groups.allSatisfy { $0.utf8.count <= ReplyPattern.maximumTextBytes }, "a group longer than the text searched")
    }
}
