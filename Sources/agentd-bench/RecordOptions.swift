import Foundation

/// Options of `agentd-bench record`, with defaults that suit this repository's lab. The shared
/// lab options (`options.agentd`, `options.seconds`, …) read through to `run`.
@dynamicMemberLookup
struct RecordOptions: Sendable {
    var run = LabRunOptions(seconds: 20, warmup: 3)
    var participants: [Int] = [1, 2, 4]
    var baseline = true
    var videoSize = "320x240"
    var fps = 15

    static let usage = """
        usage: agentd-bench record [--participants 1,2,4] [--seconds 20] [--warmup 3] [--no-baseline]
                                   [--video WxH] [--fps N]
                                   \(LabRunOptions.usage)

          Records N aiortc lab publishers with `agentd record` and, in the same run, with one aiortc
          subscriber per publisher (peers/subscriber.py: decode, WAV + VP8 WebM, like MediaRecorder),
          and prints CPU % of one core and RSS per participant for both, with their ratio.
          A 0-participant run of agentd first gives its baseline RSS (skip with --no-baseline).
        """

    subscript<Value>(dynamicMember path: KeyPath<LabRunOptions, Value>) -> Value { run[keyPath: path] }

    init(arguments: [String]) throws(BenchError) {
        var cursor = ArgumentCursor(arguments)
        while let argument = cursor.next() {
            if try run.accept(argument, from: &cursor) { continue }
            switch argument {
            case "--participants": participants = try cursor.counts(argument, in: 1...16)
            case "--no-baseline": baseline = false
            case "--video":
                let size = try cursor.size(argument)
                videoSize = "\(size.width)x\(size.height)"
            case "--fps": fps = try cursor.integer(argument, in: 1...60)
            case "-h", "--help":
                Console.line(Self.usage)
                exit(0)
            default: throw BenchError("unknown option '\(argument)' (see agentd-bench record --help)")
            }
        }
        try run.validate(scripts: ["publisher.py", "subscriber.py"])
    }
}
