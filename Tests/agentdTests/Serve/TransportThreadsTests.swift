import Foundation
import TestSupport
import Testing

/// Issue 12's acceptance for the shared transport loops, against the lab: a daemon recording one
/// aiortc publisher's room 20 times over (20 jobs, each its own engine, subscription, ICE, DTLS
/// and SRTP) runs them on at most cores + 2 threads named `agentd.io*`, and every recording gets
/// media.
@Suite("TransportThreadsLab", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct TransportThreadsTests {
    static let jobs = 20

    @Test("a daemon running 20 recording jobs has at most cores + 2 agentd.io threads")
    func twentyRecordingsShareTheLoops() async throws {
        try await SharedResourceLock.lab.withExclusive { try await twentyRecordingsBody() }
    }

    private func twentyRecordingsBody() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("threads")
        let publisher = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", "alice", "--tone", "440",
             "--duration", "90", "--create"],
            name: "alice")
        defer { publisher.terminate() }
        _ = try await publisher.waitForLine(prefix: "READY", within: .seconds(90))

        let daemon = try await DaemonProcess.start(lab: lab, maxJobs: Self.jobs)
        defer { daemon.finish() }
        let ids = try await daemon.startRecordings(Self.jobs, room: room)
        for id in ids {
            let deadline = ContinuousClock.now + .seconds(40)
            while true {
                let job = try await daemon.client.get("/v1/jobs/\(id)").json
                if job?["state"] == "running", (job?["participants"]?.integerValue ?? 0) >= 1, (job?["bytes_written"]?.integerValue ?? 0) > 0 { break }
                guard ContinuousClock.now < deadline, job?["state"] != "failed" else {
                    Issue.record("job \(id) is not recording: \(job?.serialized() ?? "-")")
                    return
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        let threads = daemon.threads
        let limit = ProcessInfo.processInfo.activeProcessorCount + 2
        #expect(threads.count(prefix: "agentd.io") >= 1, "the recordings run on no agentd.io thread: \(threads.summary)")
        #expect(threads.count(prefix: "agentd.io") <= limit, "\(threads.summary)")

        for id in ids { _ = try await daemon.client.delete("/v1/jobs/\(id)") }
        for id in ids {
            let done = try await daemon.client.waitForJob(id, in: ["done", "failed"], within: .seconds(30))
            #expect(done["state"] == "done", "\(done.serialized())")
        }
    }
}
