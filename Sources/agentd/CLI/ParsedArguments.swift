/// The result of parsing one command's arguments against its ``CommandSpec``.
struct ParsedArguments: Sendable, Equatable {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func value(_ name: String) -> String? { values[name] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A required option's value. The parser has already checked presence; this only guards misuse.
    func required(_ name: String) throws -> String {
        guard let value = values[name] else {
            throw UsageError.missingRequired(option: name)
        }
        return value
    }

    /// `--duration SEC` and friends: a positive number of seconds, at most `maximum` (timers
    /// and dates downstream hold only so much; `rule` says the limit in the error). The default
    /// limit is the one every job duration has, ``JobDuration/maximumSeconds``.
    func seconds(_ name: String, atMost maximum: Double = JobDuration.maximumSeconds, rule: String = JobDuration.rule) throws -> Double? {
        guard let text = values[name] else { return nil }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
            throw UsageError.invalidValue(option: name, value: text, expected: "a positive number of seconds")
        }
        guard seconds <= maximum else { throw UsageError.invalidValue(option: name, value: text, expected: rule) }
        return seconds
    }

    /// A comma-separated list, empty items dropped.
    func list(_ name: String) -> [String]? {
        values[name].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }
}

import AgentdCore
import Foundation
