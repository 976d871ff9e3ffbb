import Glibc

/// A voice agent rule's `match`: a POSIX extended regular expression (glibc's `regcomp`),
/// case-insensitive, searched anywhere in a turn's words.
///
/// Recipes come from files and from the API, so a pattern must not be able to hang or bloat us:
/// it is at most ``maximumBytes``, back-references (the one ERE feature that makes glibc
/// backtrack) are refused, and so are intervals past ``maximumRepeat`` or more than
/// ``maximumIntervals`` of them (nested `{n}` multiply the automaton). Texts are cut to
/// ``maximumTextBytes`` before matching.
package final class ReplyPattern: @unchecked Sendable {
    // @unchecked Sendable: `compiled` is written once in init and only read after; POSIX makes
    // regexec on one compiled pattern safe from several threads.

    package static let maximumBytes = 512
    package static let maximumRepeat = 20
    package static let maximumIntervals = 2
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

    /// Refuses back-references and large or many intervals before glibc sees the pattern.
    private static func checkShape(_ source: String) throws(ReplyPatternError) {
        let characters = Array(source)
        var intervals = 0
        var index = 0
        var inBracket = false
        while index < characters.count {
            let character = characters[index]
            if inBracket {
                if character == "]" { inBracket = false }
                index += 1
                continue
            }
            switch character {
            case "\\":
                if index + 1 < characters.count, characters[index + 1].isNumber {
                    throw .init("back-references (\\\(characters[index + 1])) are not allowed")
                }
                index += 2
                continue
            case "[":
                inBracket = true
                // A ']' right after '[' or '[^' is a literal member of the set.
                if index + 1 < characters.count, characters[index + 1] == "^" { index += 1 }
                if index + 1 < characters.count, characters[index + 1] == "]" { index += 1 }
            case "{":
                intervals += 1
                guard intervals <= maximumIntervals else { throw .init("at most \(maximumIntervals) {n,m} intervals") }
                var number = 0
                var scan = index + 1
                while scan < characters.count, characters[scan] != "}" {
                    if let digit = characters[scan].wholeNumberValue, characters[scan].isASCII {
                        number = min(number * 10 + digit, 1_000_000)
                        guard number <= maximumRepeat else { throw .init("an interval counts at most \(maximumRepeat)") }
                    } else if characters[scan] == "," {
                        number = 0
                    }
                    scan += 1
                }
            default:
                break
            }
            index += 1
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
