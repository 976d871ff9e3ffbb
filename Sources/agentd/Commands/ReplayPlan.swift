import Agent
import Foundation
import Recorder

/// Everything `agentd replay` decided from its flags, checked before anything is read or written.
struct ReplayPlan: Sendable {
    let capture: String
    let out: String?
    let overwrite: Bool
    let formats: RecordingFormats
    let impairments: ReplayImpairments
    let realTime: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        capture = arguments.positionals[0]
        out = arguments.value("out")
        if let out, out.isEmpty {
            throw UsageError.invalidValue(option: "out", value: out, expected: "a directory (it is empty)")
        }
        overwrite = arguments.has("overwrite")
        formats = try RecordPlan.formats(arguments)
        var impairments = ReplayImpairments()
        impairments.loss = try Self.percent(arguments, "loss", within: 0...50)
        impairments.reorder = try Self.percent(arguments, "reorder", within: 0...50)
        impairments.duplicate = try Self.percent(arguments, "duplicate", within: 0...50)
        impairments.videoDrift = try Self.percent(arguments, "video-drift", within: -10...10)
        if let text = arguments.value("jitter") {
            guard let ms = Int(text), (0...10_000).contains(ms) else {
                throw UsageError.invalidValue(option: "jitter", value: text, expected: "a whole number of milliseconds, 0 to 10000")
            }
            impairments.jitter = .milliseconds(ms)
        }
        if let text = arguments.value("seed") {
            guard let seed = UInt64(text) else {
                throw UsageError.invalidValue(option: "seed", value: text, expected: "a whole number, 0 to 18446744073709551615")
            }
            impairments.seed = seed
        }
        self.impairments = impairments
        realTime = arguments.has("realtime")
        json = arguments.has("json")
    }

    /// A percentage option as a fraction (absent: 0).
    private static func percent(_ arguments: ParsedArguments, _ name: String, within range: ClosedRange<Double>) throws -> Double {
        guard let text = arguments.value(name) else { return 0 }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError.invalidValue(option: name, value: text, expected: "a percentage, \(Int(range.lowerBound)) to \(Int(range.upperBound))")
        }
        return value / 100
    }
}
