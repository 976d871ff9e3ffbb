import Foundation
import Recorder
import Synchronization
import TestSupport
import Testing

@testable import agentd

@Suite struct RecordingReportAtStopTests {
    static let manifest: RecordingManifest = {
        var manifest = RecordingManifest(room: "demo", server: "ws://10.77.0.2:8188/", startedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                         state: .finished)
        manifest.durationMs = 5000
        manifest.participants = [.init(id: "1", display: "Alice", name: "Alice", joinedMs: 0)]
        return manifest
    }()

    @Test("the final manifest's report lands beside it; a directory it cannot write to is said, not thrown")
    func writesOrSays() async throws {
        let scratch = try ScratchDirectory("report-at-stop")
        let said = Mutex<[String]>([])
        await RecordingReportAtStop.write(Self.manifest, in: scratch.directory.path) { line in said.withLock { $0.append(line) } }
        #expect(FileManager.default.fileExists(atPath: scratch.path("report.json")))
        #expect(FileManager.default.fileExists(atPath: scratch.path("report.html")))
        #expect(said.withLock { $0 }.isEmpty)

        await RecordingReportAtStop.write(Self.manifest, in: scratch.path("gone")) { line in said.withLock { $0.append(line) } }
        let lines = said.withLock { $0 }
        #expect(lines.count == 1 && lines[0].hasPrefix("recording report not written: cannot write \(scratch.path("gone"))/report.json"), "\(lines)")
    }
}
