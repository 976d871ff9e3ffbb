import Foundation

/// Options of `agentd-bench replay`: in process, no lab.
struct ReplayOptions: Sendable {
    var capture = "Tests/Fixtures/replay/aiortc-sync"
    var repetitions = 30
    var participantCounts = [1, 4, 12]

    static let usage = """
        usage: agentd-bench replay [--capture DIR] [--repeat N] [--participants 1,4,12]

          The receive path's cost per packet, release build, in process: a capture (agentd record
          --capture; default Tests/Fixtures/replay/aiortc-sync, a lab session of an aiortc
          publisher) is SRTP-protected once with a fresh key, then replayed --repeat times (default
          30) at full speed through SRTP unprotect (libsrtp), the SubscriptionRouter (jitter buffer,
          NACK/PLI timers, depacketizer, sender report mapping) and a RoomRecorder writing webm
          (then webm+wav: Opus decode for the WAV), files on the disk. Beside it, in the same run, the
          floor: libsrtp unprotect and one buffered write per packet; and the Opus decode alone.
          Prints ns of CPU (the process's user + system time, every thread) and heap allocations
          (malloc, calloc, realloc: CAllocCounter) per packet, over the repetitions after the first.
          Then the capture as N participants of one RoomRecorder (--participants, default 1,4,12):
          CPU % of one core per media second, per participant and per added participant.
        """

    init(arguments: [String]) throws(BenchError) {
        var cursor = ArgumentCursor(arguments)
        while let argument = cursor.next() {
            switch argument {
            case "--capture": capture = try cursor.value(argument)
            case "--repeat": repetitions = try cursor.integer(argument, in: 2...10_000)
            case "--participants": participantCounts = try cursor.counts(argument, in: 1...200)
            case "-h", "--help":
                Console.line(Self.usage)
                exit(0)
            default: throw BenchError("unknown option '\(argument)' (see agentd-bench replay --help)")
            }
        }
    }
}
