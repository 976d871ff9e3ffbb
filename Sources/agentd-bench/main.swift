// agentd-bench: release-built benchmarks that print figures beside an anchor measured in the
// same run (house rule 12). See scripts/bench.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "encode-worker" {
    exit(await EncodeWorker.main(arguments: Array(arguments.dropFirst())))
}
let signalSources = ChildRegistry.shared.installSignalHandlers()
do {
    switch arguments.first {
    case "record":
        try RecordBenchmark(options: try RecordOptions(arguments: Array(arguments.dropFirst()))).run()
    case "play":
        try PlayBenchmark(options: try PublishOptions(mode: .play, arguments: Array(arguments.dropFirst()))).run()
    case "encode":
        try EncodeBenchmark(options: try PublishOptions(mode: .encode, arguments: Array(arguments.dropFirst()))).run()
    case "composite":
        try CompositeBenchmark(options: try CompositeOptions(arguments: Array(arguments.dropFirst()))).run()
    case "workers":
        try await WorkersBenchmark(options: try WorkersOptions(arguments: Array(arguments.dropFirst()))).run()
    case "replay":
        try await ReplayBenchmark(options: try ReplayOptions(arguments: Array(arguments.dropFirst()))).run()
    case "speech":
        try SpeechBenchmark(options: try SpeechOptions(arguments: Array(arguments.dropFirst()))).run()
    case nil, "-h", "--help":
        Console.line([RecordOptions.usage, PublishOptions.usage(.play), PublishOptions.usage(.encode), CompositeOptions.usage, SpeechOptions.usage, ReplayOptions.usage, WorkersOptions.usage]
            .joined(separator: "\n\n"))
    case let other?:
        throw BenchError("unknown benchmark '\(other)' (available: record, play, encode, composite, speech, replay, workers)")
    }
} catch let error as BenchError {
    ChildRegistry.shared.stopAll()
    let signal = ChildRegistry.shared.interruptedBy
    if signal != 0 { _exit(128 + signal) }
    Console.error("error: \(error.description)")
    exit(1)
}
withExtendedLifetime(signalSources) {}
