import Testing

@testable import AgentdCore

/// A rule's pattern: POSIX ERE, case-insensitive, groups as captures, and the shapes that could
/// hang or bloat glibc refused before it sees them.
@Suite struct ReplyPatternTests {
    @Test func matchesAnywhereIgnoringCaseWithGroups() throws {
        let pattern = try ReplyPattern("call (me|us) (at|on) ([a-z]+)")
        #expect(pattern.firstMatch(in: "Please CALL me at noon") == ["CALL me at noon", "me", "at", "noon", "", "", "", "", "", ""])
        #expect(pattern.firstMatch(in: "call them at noon") == nil)
        let optional = try ReplyPattern("^(hello|hi)( there)?\\b")
        #expect(optional.firstMatch(in: "hi")?.prefix(3) == ["hi", "hi", ""], "a group that took no part is empty")
        #expect(try ReplyPattern("\\btime\\b").firstMatch(in: "what time is it") != nil, "GNU \\b works")
        #expect(try ReplyPattern("\\btime\\b").firstMatch(in: "sometimes") == nil)
    }

    @Test("refused patterns say why", arguments: [
        ("", "non-empty"),
        ("(a", "not a POSIX extended regular expression"),
        ("(a)\\1", "back-references"),
        ("a{1,21}", "at most 20"),
        ("a{999999999999}", "at most 20"),
        ("a{2}b{2}c{2}", "at most 2"),
        (String(repeating: "a", count: 513), "at most 512 bytes"),
        ("a\u{0}b", "NUL"),
    ])
    func refused(source: String, reason: String) {
        #expect {
            _ = try ReplyPattern(source)
        } throws: { error in
            (error as? ReplyPatternError)?.description.contains(reason) == true
        }
    }

    @Test func bracketsAndEscapesAreNotMistakenForIntervalsOrBackReferences() throws {
        #expect(try ReplyPattern("[{}]+x{2}y{3}").firstMatch(in: "{}xxyyy") != nil, "braces in a set are no interval")
        #expect(try ReplyPattern("[]1\\\\]").firstMatch(in: "1") != nil, "a ']' first in a set and a backslash in it")
        #expect(try ReplyPattern("a\\.b").firstMatch(in: "a.b") != nil)
    }

    @Test func longTextsAreCutAndNULsDropped() throws {
        let pattern = try ReplyPattern("end$")
        #expect(pattern.firstMatch(in: String(repeating: "x", count: 10_000) + " end") == nil, "only the first 4096 bytes are searched")
        #expect(try ReplyPattern("ab").firstMatch(in: "a\u{0}b") != nil)
    }
}
