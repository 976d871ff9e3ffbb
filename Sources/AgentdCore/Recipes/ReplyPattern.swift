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
        let shape = try scanner.alternatives(depth: 0)
        guard shape.size <= maximumExpandedSize else {
            throw .init("its repetitions written out come to more than \(maximumExpandedSize) elements")
        }
    }

    /// How big a pattern may be with every repetition written out.
    package static let maximumExpandedSize = 4_096
    /// Groups nest at most this deep.
    package static let maximumDepth = 16
    /// A repetition may hold at most one level of repetition inside it (`(ab+)*`, not
    /// `((a+)b)*+`): glibc's closures over stars of stars grow far faster than their size (the
    /// fuzzer found `$***+++++++++++` taking over 11 s).
    package static let maximumRepetitionDepth = 2

    /// Estimates the written-out size of a pattern and how deep its repetitions nest: a
    /// recursive descent over groups, sets, escapes and repetitions that stops counting (and
    /// refuses) once a bound is passed. A repetition right after another (`a**`) nests in it.
    private struct ShapeScanner {
        struct Shape {
            var size: Int
            var repetitionDepth: Int
        }

        let characters: [Character]
        var index = 0

        /// `a|b|c` up to a `)` or the end: the sum of the branches, the deepest repetition.
        mutating func alternatives(depth: Int) throws(ReplyPatternError) -> Shape {
            guard depth <= ReplyPattern.maximumDepth else { throw .init("groups nest more than \(ReplyPattern.maximumDepth) deep") }
            var total = Shape(size: 0, repetitionDepth: 0)
            // A ')' closes the group it is in; at the top there is none, and glibc takes it as
            // a plain character, so the scan goes on past it (the fuzzer hid repetitions there).
            while index < characters.count, characters[index] != ")" || depth == 0 {
                if characters[index] == "|" {
                    index += 1
                    continue
                }
                let next = try piece(depth: depth)
                total.size = Self.capped(total.size + next.size)
                total.repetitionDepth = max(total.repetitionDepth, next.repetitionDepth)
            }
            return total
        }

        /// One atom and the repetitions after it.
        mutating func piece(depth: Int) throws(ReplyPatternError) -> Shape {
            var shape = try atom(depth: depth)
            while index < characters.count {
                let factor: Int
                switch characters[index] {
                case "*", "?":
                    index += 1
                    factor = 1
                case "+":
                    index += 1
                    factor = 2
                case "{":
                    // A '{' that does not start a well-formed interval is a plain character.
                    guard let count = try interval() else { return shape }
                    factor = max(1, count)
                default:
                    return shape
                }
                shape.size = Self.capped(shape.size * factor)
                shape.repetitionDepth += 1
                guard shape.repetitionDepth <= ReplyPattern.maximumRepetitionDepth else {
                    throw .init("repetitions nest more than \(ReplyPattern.maximumRepetitionDepth) deep (a repetition of a repetition of a repetition)")
                }
            }
            return shape
        }

        mutating func atom(depth: Int) throws(ReplyPatternError) -> Shape {
            let character = characters[index]
            index += 1
            switch character {
            case "(":
                let inner = try alternatives(depth: depth + 1)
                if index < characters.count { index += 1 }  // the ')'; glibc refuses a missing one
                return Shape(size: max(1, inner.size), repetitionDepth: inner.repetitionDepth)
            case "[":
                // A ']' right after '[' or '[^' is a member; the set ends at the next ']'.
                if index < characters.count, characters[index] == "^" { index += 1 }
                if index < characters.count, characters[index] == "]" { index += 1 }
                while index < characters.count, characters[index] != "]" { index += 1 }
                if index < characters.count { index += 1 }
                return Shape(size: 1, repetitionDepth: 0)
            case "\\":
                if index < characters.count {
                    let escaped = characters[index]
                    index += 1
                    if escaped.isNumber { throw .init("back-references (\\\(escaped)) are not allowed") }
                }
                return Shape(size: 1, repetitionDepth: 0)
            default:
                return Shape(size: 1, repetitionDepth: 0)
            }
        }

        /// `{n}`, `{n,}`, `{,m}` or `{n,m}` at `index`: the largest count (each at most
        /// ``ReplyPattern/maximumRepeat``), past the '}'; nil, with `index` unmoved, when the
        /// brace starts no interval of that form.
        mutating func interval() throws(ReplyPatternError) -> Int? {
            var scan = index + 1
            var largest = 0
            var number = 0
            var commas = 0
            while scan < characters.count, characters[scan] != "}" {
                let character = characters[scan]
                if character.isASCII, let digit = character.wholeNumberValue {
                    number = min(number * 10 + digit, 1_000_000)
                    guard number <= ReplyPattern.maximumRepeat else { throw .init("an interval counts at most \(ReplyPattern.maximumRepeat)") }
                    largest = max(largest, number)
                } else if character == ",", commas == 0 {
                    commas += 1
                    number = 0
                } else {
                    return nil
                }
                scan += 1
            }
            guard scan < characters.count else { return nil }
            index = scan + 1
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
