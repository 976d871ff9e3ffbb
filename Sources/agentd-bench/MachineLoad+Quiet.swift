import Foundation

extension MachineLoad {
    /// Percent busy above which the machine does not count as quiet.
    static let quietBelow = 25.0

    /// The machine is shared (other builds and tests): before each run, wait up to a minute for
    /// it to be mostly idle over a 2 s sample, so figures are not taken beside a compiler.
    static func waitForQuiet(atMost patience: TimeInterval = 60) {
        let deadline = Date().addingTimeInterval(patience)
        var busy = 0.0
        repeat {
            guard let before = read() else { return }
            Thread.sleep(forTimeInterval: 2)
            guard let after = read() else { return }
            busy = after.busyPercent(since: before)
            if busy < quietBelow { return }
        } while Date() < deadline
        Console.line("(machine still \(Int(busy)) % busy from other work after waiting \(Int(patience)) s; measuring anyway)")
    }
}
