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

        // A job writes its first manifest as it makes its recorder, and takes its loop right after.
        func manifestsWritten(_ count: Int) async throws {
            try await pollUntil(timeout: .seconds(15), "\(count) first manifests") {
                (0..<count).allSatisfy { FileManager.default.fileExists(atPath: daemon.outputRoot + "/threads-\($0)/manifest.json") }
            }
        }
        func ioThreads(_ count: Int) async {
            do {
                try await pollUntil(timeout: .seconds(5), "\(count) agentd.io threads") { daemon.threads.count(prefix: "agentd.io") == count }
            } catch {
                Issue.record("\(error); the daemon's threads: \(daemon.threads.summary)")
            }
        }
        var ids = try await daemon.startRecordings(1, room: "threads")
        try await manifestsWritten(1)
        await ioThreads(1)
        let one = daemon.threads

        ids += try await daemon.startRecordings(Self.jobs - 1, room: "threads", from: 1)
        try await manifestsWritten(Self.jobs)
        let busy = daemon.threads
        await ioThreads(min(Self.jobs, Self.cores))
        #expect(busy.count(prefix: "agentd.io") <= Self.ioThreadLimit, "\(busy.summary)")
        #expect(busy.names.count - one.names.count < Self.jobs / 2,
                "19 more jobs, \(busy.names.count - one.names.count) more threads: \(one.summary) then \(busy.summary)")
        for id in ids {
            // Joining shows as queued (running comes with the recording): an ended job holds no loop.
            let state = try await daemon.client.state(of: id)
            #expect(state == "queued", "job \(id) is \(state ?? "gone"), no longer joining: the count means less")
        }
    }
}
