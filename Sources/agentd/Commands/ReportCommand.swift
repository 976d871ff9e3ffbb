import Foundation
import RecordingReport

/// `agentd report DIR`: the QA report of any recording directory, (re)written as report.json and
/// report.html beside its manifest, and summed up on stdout in a screenful.
enum ReportCommand: Command {
    static let spec = CommandSpec(
        name: "report",
        summary: "Write a recording directory's QA report (report.json, report.html) and print a summary.",
        positionals: ["DIR"],
        options: [
            .flag("json", "Print report.json on stdout instead of the summary."),
        ],
        notes: [
            "DIR is a recording directory (it has a manifest.json); a recording still running reports what it has so far.",
            "Per participant: presence, speaking time and intervals (a voice activity detector on <name>.wav), loss, NACK, PLI,",
            "keyframes, video freezes (frames more than 500 ms apart in <name>.webm), the A/V offset the sender reports showed,",
            "and the recorder's own disconnections. report.html is one self-contained page with a timeline and thumbnails.",
            "Exit 2 when DIR is missing or holds no manifest.json, 1 when the manifest cannot be read, 5 when the report cannot be written.",
            SharedOptions.exitCodeNote,
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let directory = arguments.positionals[0]
        let document: ReportDocument
        do throws(RecordingReportError) {
            document = try RecordingReportBuilder(directory: directory).build()
            try RecordingReportWriter.write(document, to: directory)
        } catch {
            throw failure(error)
        }
        if arguments.has("json"), let json = try? document.report.encodedJSON() {
            context.standardOutput(String(decoding: json, as: UTF8.self))
        } else {
            ReportSummary.lines(document.report).forEach(context.standardOutput)
            let written = [RecordingReportWriter.jsonName, RecordingReportWriter.htmlName]
                .map { (directory as NSString).appendingPathComponent($0) }
            context.standardOutput("wrote \(written.joined(separator: ", "))")
        }
        return .ok
    }

    /// The contract's exit codes: a wrong DIR is usage, a bad manifest "anything else", a report
    /// that cannot be written an output failure.
    static func failure(_ error: RecordingReportError) -> CommandFailure {
        switch error {
        case .notADirectory, .noManifest:
            CommandFailure(.usage, error.description, hint: "give a recording directory, one with a manifest.json")
        case .manifestUnreadable, .manifestTooLarge, .badManifest:
            CommandFailure(.failure, error.description)
        case .cannotWrite:
            CommandFailure(.outputFailed, error.description, hint: "check the directory's permissions and free space")
        }
    }
}
