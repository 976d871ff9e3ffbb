#if FUZZING
import CFuzzDriver
import FuzzTargets
import Foundation

/// The target libFuzzer drives; set once in `agentd_fuzz_main` before the first input, read
/// only by the callback on libFuzzer's thread after that.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// agentd-fuzz built with `-sanitize=fuzzer,address -D FUZZING` (scripts/fuzz). SwiftPM links an
/// executable's `main` to `<module>_main`, so this is the program's entry: it takes
/// `--target=NAME` (or AGENTD_FUZZ_TARGET) off the command line, gives libFuzzer the rest with
/// the target's `-max_len` unless one is set, and lets LLVMFuzzerRunDriver run. `--list` names
/// the targets.
@_cdecl("agentd_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var arguments = (0..<Int(argc)).compactMap { index in argv?[index].map { String(cString: $0) } }
    if arguments.contains("--list") {
        for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
        return 0
    }
    var name = ProcessInfo.processInfo.environment["AGENTD_FUZZ_TARGET"]
    if let index = arguments.firstIndex(where: { $0.hasPrefix("--target=") }) {
        name = String(arguments[index].dropFirst("--target=".count))
        arguments.remove(at: index)
    }
    guard let name, let target = FuzzTarget.named(name) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("agentd-fuzz: error: no target (--target=NAME, one of: \(names))\n".utf8))
        return 2
    }
    selectedTarget = target
    // libFuzzer runs itself again for -minimize_crash, -merge and -fork, with the arguments it
    // was given, which no longer name the target: the environment does.
    setenv("AGENTD_FUZZ_TARGET", target.name, 1)
    if !arguments.contains(where: { $0.hasPrefix("-max_len=") }) { arguments.insert("-max_len=\(target.maxInputLength)", at: 1) }
    // libFuzzer keeps argv for the whole run, so the copies are never freed.
    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    var count = CInt(arguments.count)
    return cArguments.withUnsafeMutableBufferPointer { buffer in
        var pointer = buffer.baseAddress
        return LLVMFuzzerRunDriver(&count, &pointer) { data, size in
            selectedTarget?.run(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
    }
}
#endif
