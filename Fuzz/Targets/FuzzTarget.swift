/// One fuzz target: a parser of untrusted bytes (the network, files, the API) driven with any
/// input. `run` must return for every input; a trap, an AddressSanitizer report, a hang or a huge
/// allocation is a bug in the code it drives. Where a parser promises more than "no trap" (what
/// it parsed writes back to what it read, frames come out in order), the target checks that too,
/// with ``FuzzCheck/expect(_:_:)``, which traps on purpose.
///
/// The same targets run three ways: under libFuzzer (`scripts/fuzz`, a `-D FUZZING` build of
/// agentd-fuzz), over the committed corpora by `agentd-fuzz replay` in a normal build, and over
/// the corpora again in the FuzzTests unit tests.
public struct FuzzTarget: Sendable {
    /// As `scripts/fuzz` and the corpus folder name it (`Fuzz/corpus/<name>`).
    public let name: String
    /// What it drives, for `agentd-fuzz list`.
    public let summary: String
    /// The largest input worth trying (libFuzzer's `-max_len`).
    public let maxInputLength: Int
    public let run: @Sendable (UnsafeRawBufferPointer) -> Void

    public init(name: String, summary: String, maxInputLength: Int = 4096, run: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        self.name = name
        self.summary = summary
        self.maxInputLength = maxInputLength
        self.run = run
    }

    /// Runs the target on `bytes`.
    public func callAsFunction(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { run($0) }
    }
}

/// The targets' oracle for promises beyond "no trap".
public enum FuzzCheck {
    /// Traps with `message` when `condition` is false, so libFuzzer keeps the input as a crash.
    public static func expect(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        if !condition { fatalError("fuzz check failed: \(message())", file: file, line: line) }
    }
}
