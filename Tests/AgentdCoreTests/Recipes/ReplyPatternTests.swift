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
        ("(((a{20}){20}){20})", "nest more than 2"),
        ("((a+)+)+", "nest more than 2"),
        ("a***", "nest more than 2"),
        ("a{x+++", "nest more than 2"),
        ("a{1,2,3}***", "nest more than 2"),
        ("(" + String(repeating: "x", count: 300) + "){20}", "written out"),
        (String(repeating: "(", count: 17) + "a" + String(repeating: ")", count: 17), "nest more than 16"),
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

    /// Found by the reply-pattern fuzz target: 29 stacked `+` made glibc's regcomp take 2 GB
    /// (each `+` is compiled as a copy of everything before it and a star), and `$***` with 11
    /// `+` took over 11 s, and 58 `+` after a stray `)` 2 GB again.
    @Test("stacked repetitions from the fuzzer are refused before glibc sees them", arguments: [
        [0x5c, 0x25, 0x62, 0x7c, 0x6c, 0xa4] + [UInt8](repeating: 0x2b, count: 29) + [0x7c, 0x97, 0x97, 0x97, 0x68, 0x74],
        [0x8d, 0x24, 0x08, 0x2a, 0x2a, 0x2a] + [UInt8](repeating: 0x2b, count: 11) + [0x79, 0xe1],
        // A stray ')' ended the first check's scan, and the 58 '+' after it went unseen.
        Array("(|)-|)()".utf8) + [UInt8](repeating: 0x9b, count: 7) + [UInt8](repeating: 0x2b, count: 58) + [UInt8](repeating: 0x9b, count: 26),
    ] as [[UInt8]])
    func fuzzerFindings(found: [UInt8]) throws {
        #expect {
            _ = try ReplyPattern(String(decoding: found, as: UTF8.self))
        } throws: { error in
            (error as? ReplyPatternError)?.description.contains("nest more than 2") == true
        }
    }

    @Test func repetitionsThatRulesNeedStillCompile() throws {
        // A few repetitions, side by side or nested a little, are what rules need and still compile.
        #expect(try ReplyPattern("a{2}b{2}c{2}(de+)+f{1,3}").firstMatch(in: "aabbccdeedefff") != nil)
        #expect(try ReplyPattern("((hi|hello)+ )*there").firstMatch(in: "hi hello there") != nil)
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
