import Foundation
import TestSupport
import Testing

/// The daemon's recordings share the process's transport loops (issue 12): 20 recordings at once
/// run on at most one loop thread per core, not on a thread each. Without the lab: every job
/// points at a Janus that never answers (``SilentListener``), so all 20 stay joining, each engine
/// holding its loop, until the connect timeout. TransportThreadsTests checks the same with real
/// recordings in the lab.
@Suite("TransportThreadsLocal", .serialized)
struct TransportThreadsLocalTests {
    static let jobs = 20
    static let cores = ProcessInfo.processInfo.activeProcessorCount
    /// The issue's bound: one loop per core, and two to spare.
    static let ioThreadLimit = cores + 2

    @Test("20 recordings joining at once run on one agentd.io thread per core, not a thread each")
    func joiningRecordingsShareTheLoops() async throws {
        let janus = try SilentListener()
        let daemon = try await DaemonProcess.start(server: janus.url, maxJobs: Self.jobs)
        defer { daemon.finish() }
        let idle = daemon.threads
        #expect(!idle.names.isEmpty, "no threads read for the daemon")
        #expect(idle.count(prefix: "agentd.io") == 0, "a loop started before any job needed one: \(idle.summary)")

        let ids = try await daemon.startRecordings(Self.jobs, room: "threads")
        // A job writes its first manifest as it makes its recorder, and takes its loop right after.
        try await pollUntil(timeout: .seconds(15), "every job's first manifest") {
            (0..<Self.jobs).allSatisfy { FileManager.default.fileExists(atPath: daemon.outputRoot + "/threads-\($0)/manifest.json") }
        }
        let expected = min(Self.jobs, Self.cores)
        do {
            try await pollUntil(timeout: .seconds(10), "\(expected) agentd.io threads") {
                daemon.threads.count(prefix: "agentd.io") == expected
            }
        } catch {
            Issue.record("\(error); the daemon's threads: \(daemon.threads.summary)")
        }
        let busy = daemon.threads
        for id in ids {
            #expect(try await daemon.client.state(of: id) == "running", "job \(id) is no longer joining; the count means nothing")
        }
        #expect(busy.count(prefix: "agentd.io") <= Self.ioThreadLimit, "\(busy.summary)")
        #expect(busy.names.count - idle.names.count < Self.jobs, "a thread per job: \(idle.names.count) threads idle, \(busy.summary)")
    }
}
