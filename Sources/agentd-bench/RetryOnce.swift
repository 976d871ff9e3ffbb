/// The lab and the machine are shared with other work (tests restart Janus, builds saturate
/// the cores), so a run that fails is tried once more, in a fresh room and work directory,
/// before giving up. Each try waits for a quiet machine first.
enum RetryOnce {
    /// Runs `body` with `work`, then once more with `work/retry` if it failed (not when the
    /// benchmark was interrupted).
    static func run<Result>(_ label: String, work: String, _ body: (String) throws(BenchError) -> Result) throws(BenchError) -> Result {
        do {
            MachineLoad.waitForQuiet()
            return try body(work)
        } catch {
            if ChildRegistry.shared.interruptedBy != 0 { throw error }
            Console.line("(\(label) failed, trying once more: \(error.description))")
            MachineLoad.waitForQuiet()
            return try body("\(work)/retry")
        }
    }
}
