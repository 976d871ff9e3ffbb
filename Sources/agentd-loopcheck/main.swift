import Agent
import CNice
import Foundation

// Proves the loop-confinement check is live in the build it is compiled in (the tests run the
// release build): with no argument it touches a LoopBound value on its loop and exits 0; with
// `off-loop` it touches it from the main thread and must die by a trap. `bench` times the check
// against the GLib ownership test it replaced.

let loop = EventLoop(name: "agentd.loopcheck")
let ticks = LoopBound(0, loop: loop)

switch CommandLine.arguments.dropFirst().first {
case nil:
    let seen = try loop.sync {
        ticks.value += 1
        return ticks.value
    }
    print("on-loop access ok (\(seen))")
    loop.shutdown()
    exit(0)
case "off-loop":
    ticks.value += 1
    print("off-loop access was not caught")
    exit(0)
case "bench":
    let rounds = 10_000_000
    let (checked, ownership) = try loop.sync { () -> (Duration, Duration) in
        let clock = ContinuousClock()
        let checked = clock.measure {
            for _ in 0..<rounds { loop.assertInLoop() }
        }
        var owned = 0
        let ownership = clock.measure {
            for _ in 0..<rounds { owned &+= Int(g_main_context_is_owner(loop.context)) }
        }
        if owned != rounds { print("g_main_context_is_owner said no \(rounds - owned) times on the loop") }
        return (checked, ownership)
    }
    func nanoseconds(_ duration: Duration) -> Double { duration / .nanoseconds(1) / Double(rounds) }
    let info = ProcessInfo.processInfo
    print("machine: \(info.activeProcessorCount) cores, \(info.operatingSystemVersionString)")
    print(String(format: "assertInLoop %.2f ns/check, g_main_context_is_owner (anchor) %.2f ns/check, ratio %.2f",
                 nanoseconds(checked), nanoseconds(ownership), nanoseconds(checked) / nanoseconds(ownership)))
    loop.shutdown()
    exit(0)
case let other?:
    FileHandle.standardError.write(Data("agentd-loopcheck: error: unknown argument \(other) (give none, off-loop or bench)\n".utf8))
    exit(2)
}
