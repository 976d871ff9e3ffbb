#if !FUZZING
import Foundation
import FuzzTargets

/// agentd-fuzz in a normal build: lists the targets and replays inputs through them, so the
/// corpora and crash files can be run without the fuzzer (`scripts/fuzz --replay`). The
/// libFuzzer build (`-D FUZZING`, LibFuzzerMain.swift) is the other half.
///
///     agentd-fuzz list
///     agentd-fuzz replay [--target NAME] [PATH...]   (default PATH: Fuzz/corpus/<target>)
@main
struct FuzzReplay {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else { usage() }
        arguments.removeFirst()
        switch command {
        case "list":
            for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
        case "replay":
            var targets = FuzzTarget.all
            if let index = arguments.firstIndex(of: "--target") {
                guard index + 1 < arguments.count, let target = FuzzTarget.named(arguments[index + 1]) else {
                    fail("unknown target (agentd-fuzz list names them)")
                }
                targets = [target]
                arguments.removeSubrange(index...index + 1)
            }
            for target in targets {
                let paths = arguments.isEmpty ? ["Fuzz/corpus/\(target.name)"] : arguments
                let count = FuzzCorpus.replay(target, paths: paths)
                print("\(target.name): \(count) inputs, no crash")
            }
        default:
            usage()
        }
    }

    static func usage() -> Never {
        fail("usage: agentd-fuzz list | replay [--target NAME] [PATH...]")
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("agentd-fuzz: error: \(message)\n".utf8))
        exit(2)
    }
}
#endif
