import Foundation

/// Options of `agentd-bench workers`: the Redis job queue in process (no lab), and with --lab the
/// time from submit to joined through `agentd serve --redis` and `agentd worker`s.
struct WorkersOptions: Sendable {
    var jobs = 2000
    var claimers = [1, 4]
    var redisServer = "/usr/bin/redis-server"
    var lab = false
    var labJobs = 6
    var workers = 2
    /// The programs and the lab (--agentd, --python, --peers, --server, --ice-allow, --work, --keep).
    var labOptions = LabRunOptions(seconds: 0, warmup: 0)

    static let usage = """
        usage: agentd-bench workers [--jobs N] [--claimers 1,4] [--redis-server PATH]
                                    [--lab [--lab-jobs N] [--workers N] \(LabRunOptions.usage)]

          The distributed job queue (issue 16), release build. In process, against a redis-server of
          its own on loopback: PING round trips on one connection (the anchor: one Redis round trip),
          --jobs submits on one connection, then the same jobs claimed and finished by each count
          of --claimers (one connection each): jobs per second. With --lab: an aiortc publisher in
          a room, `agentd serve --redis` and --workers `agentd worker`s (capacity 1 each), --lab-jobs
          3 s recordings submitted one after another; the time from the submit to `running` (the
          worker joined the room), beside the same recordings run by a plain `agentd serve`.
        """

    init(arguments: [String]) throws(BenchError) {
        var cursor = ArgumentCursor(arguments)
        while let argument = cursor.next() {
            if try labOptions.accept(argument, from: &cursor) { continue }
            switch argument {
            case "--jobs": jobs = try cursor.integer(argument, in: 10...1_000_000)
            case "--claimers": claimers = try cursor.counts(argument, in: 1...64)
            case "--redis-server": redisServer = try cursor.value(argument)
            case "--lab": lab = true
            case "--lab-jobs": labJobs = try cursor.integer(argument, in: 1...100)
            case "--workers": workers = try cursor.integer(argument, in: 1...16)
            case "-h", "--help":
                Console.line(Self.usage)
                exit(0)
            default: throw BenchError("unknown option '\(argument)' (see agentd-bench workers --help)")
            }
        }
        guard FileManager.default.isExecutableFile(atPath: redisServer) else { throw BenchError("no redis-server at \(redisServer) (--redis-server)") }
    }
}
