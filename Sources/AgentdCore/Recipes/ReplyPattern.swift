import Glibc

/// A voice agent rule's `match`: a POSIX extended regular expression (glibc's `regcomp`),
/// case-insensitive, searched anywhere in a turn's words.
///
/// Recipes come from files and from the API, so a pattern must not be able to hang or bloat us:
/// it is at most ``maximumBytes``, back-references (the one ERE feature that makes glibc
/// backtrack) are refused, and so are intervals past ``maximumRepeat`` and patterns whose
/// repetitions written out pass ``maximumExpandedSize`` (stacked and nested `+` and `{n}`
/// multiply glibc's automaton). Texts are cut to ``maximumTextBytes`` before matching.
package final class ReplyPattern: @unchecked Sendable {
    // @unchecked Sendable: `compiled` is written once in init and only read after; POSIX makes
    // regexec on one compiled pattern safe from several threads.

    package static let maximumBytes = 512
    package static let maximumRepeat = 20
    package static let maximumTextBytes = 4_096
    /// `{0}` (the whole match) and `{1}` … `{9}`.
    package static let groupCount = 10

    package let source: String
    private var compiled = regex_t()

    /// - Throws: a message saying what is wrong with `source`.
    package init(_ source: String) throws(ReplyPatternError) {
        guard !source.isEmpty else { throw .init("expected a non-empty pattern") }
        guard source.utf8.count <= Self.maximumBytes else {
            throw .init("expected at most \(Self.maximumBytes) bytes, got \(source.utf8.count)")
        }
        guard !source.utf8.contains(0) else { throw .init("a pattern cannot hold a NUL character") }
        try Self.checkShape(source)
        self.source = source
        let status = source.withCString { regcomp(&compiled, $0, REG_EXTENDED | REG_ICASE) }
        guard status == 0 else {
            var buffer = [CChar](repeating: 0, count: 256)
            regerror(status, &compiled, &buffer, buffer.count)
            let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            regfree(&compiled)
            throw .init("not a POSIX extended regular expression: \(reason)")
        }
    }

    deinit {
        regfree(&compiled)
    }

    /// The first match in `text`: `[0]` the whole match, `[1]` … `[9]` the groups ("" for a group
    /// that took no part or does not exist); nil when the pattern does not match.
    package func firstMatch(in text: String) -> [String]? {
        let bytes = Array(text.utf8.prefix(Self.maximumTextBytes).filter { $0 != 0 })
        var matches = [regmatch_t](repeating: regmatch_t(rm_so: -1, rm_eo: -1), count: Self.groupCount)
        let status = (bytes + [0]).withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 1 }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                regexec(&compiled, pointer, matches.count, &matches, 0)
            }
        }
        guard status == 0 else { return nil }
        return matches.map { match in
            let start = Int(match.rm_so)
            let end = Int(match.rm_eo)
            guard start >= 0, end >= start, end <= bytes.count else { return "" }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }

    /// Refuses back-references, and patterns whose repetitions written out would be large,
    /// before glibc sees them: glibc compiles `x+` as `xx*` and `x{n,m}` as n to m copies of `x`,
    /// so stacked or nested repetitions multiply (`a++++…` doubles with every `+`; the fuzzer
    /// found 30 of them taking 2 GB).
    private static func checkShape(_ source: String) throws(ReplyPatternError) {
        var scanner = ShapeScanner(characters: Array(source))
        let size = try scanner.alternatives(depth: 0)
        guard size <= maximumExpandedSize else {
            throw .init("its repetitions written out come to more than \(maximumExpandedSize) elements")
        }
    }

    /// How big a pattern may be with every repetition written out.
    package static let maximumExpandedSize = 4_096
    /// Groups nest at most this deep.
    package static let maximumDepth = 16

    /// Estimates the written-out size of a pattern: a recursive descent over groups, sets,
    /// escapes and repetitions that stops counting (and refuses) once a size passes the bound.
    private struct ShapeScanner {
        let characters: [Character]
        var index = 0

        /// `a|b|c` up to a `)` or the end: the sum of the branches.
        mutating func alternatives(depth: Int) throws(ReplyPatternError) -> Int {
            guard depth <= ReplyPattern.maximumDepth else { throw .init("groups nest more than \(ReplyPattern.maximumDepth) deep") }
            var total = 0
            while index < characters.count, characters[index] != ")" {
                if characters[index] == "|" {
                    index += 1
                    continue
                }
                total = Self.capped(total + (try piece(depth: depth)))
            }
            return total
        }

        /// One atom and the repetitions after it.
        mutating func piece(depth: Int) throws(ReplyPatternError) -> Int {
            var size = try atom(depth: depth)
            while index < characters.count {
                switch characters[index] {
                case "*", "?":
                    index += 1
                case "+":
                    index += 1
                    size = Self.capped(size * 2)
                case "{":
                    let count = try interval()
                    size = Self.capped(size * max(1, count))
                default:
                    return size
                }
            }
            return size
        }

        mutating func atom(depth: Int) throws(ReplyPatternError) -> Int {
            let character = characters[index]
            index += 1
            switch character {
            case "(":
                let inner = try alternatives(depth: depth + 1)
                if index < characters.count { index += 1 }  // the ')'; glibc refuses a missing one
                return max(1, inner)
            case "[":
                // A ']' right after '[' or '[^' is a member; the set ends at the next ']'.
                if index < characters.count, characters[index] == "^" { index += 1 }
                if index < characters.count, characters[index] == "]" { index += 1 }
                while index < characters.count, characters[index] != "]" { index += 1 }
                if index < characters.count { index += 1 }
                return 1
            case "\\":
                guard index < characters.count else { return 1 }
                let escaped = characters[index]
                index += 1
                if escaped.isNumber { throw .init("back-references (\\\(escaped)) are not allowed") }
                return 1
            default:
                return 1
            }
        }

        /// `{n}`, `{n,}` or `{n,m}`: the largest count, each at most ``ReplyPattern/maximumRepeat``.
        mutating func interval() throws(ReplyPatternError) -> Int {
            index += 1
            var largest = 0
            var number = 0
            while index < characters.count, characters[index] != "}" {
                if let digit = characters[index].wholeNumberValue, characters[index].isASCII {
                    number = min(number * 10 + digit, 1_000_000)
                    guard number <= ReplyPattern.maximumRepeat else { throw .init("an interval counts at most \(ReplyPattern.maximumRepeat)") }
                    largest = max(largest, number)
                } else if characters[index] == "," {
                    number = 0
                }
                index += 1
            }
            if index < characters.count { index += 1 }
            return largest
        }

        static func capped(_ size: Int) -> Int {
            min(size, ReplyPattern.maximumExpandedSize + 1)
        }
    }
}

/// Why a rule's pattern is refused; the recipe parser puts the JSON path in front.
package struct ReplyPatternError: Error, Equatable, Sendable, CustomStringConvertible {
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}
