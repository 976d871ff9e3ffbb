import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Recorder

@Suite struct ManifestWriterTests {
    @Test func aReaderNeverSeesAPartialManifestAndNoTemporaryFileIsLeft() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = ManifestWriter(directory: directory.path)
        var manifest = RecordingManifestTests.sample()
        try writer.write(manifest)

        let stop = Atomic(false)
        let reads = Atomic(0)
        let broken = Atomic(0)
        let done = DispatchSemaphore(value: 0)
        let path = writer.path
        Thread.detachNewThread {
            while !stop.load(ordering: .acquiring) {
                if let data = FileManager.default.contents(atPath: path) {
                    if (try? RecordingManifest.decode(data)) == nil { broken.add(1, ordering: .relaxed) }
                    reads.add(1, ordering: .relaxed)
                }
            }
            done.signal()
        }
        for index in 0..<300 {
            // Grows and shrinks, so a torn read would show as truncated or trailing JSON.
            manifest.participants = (0..<(index % 17)).map {
                .init(id: "\($0)", display: "p\($0)", name: "p\($0)", joinedMs: Int64($0))
            }
            try writer.write(manifest)
        }
        stop.store(true, ordering: .releasing)
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(reads.load(ordering: .relaxed) > 0)
        #expect(broken.load(ordering: .relaxed) == 0)
        #expect(writer.writes == 301)
        // While recording, the space held for the last manifest sits beside it; nothing else.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [".manifest.reserve", "manifest.json"])
        let final = try RecordingManifest.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(final.participants.count == 299 % 17)
        try writer.writeFinal(manifest)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["manifest.json"])
    }

    @Test func refreshesOnlyWhenDue() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let writer = ManifestWriter(directory: directory.path, refreshInterval: .seconds(2))
        let start = ContinuousClock.now
        var built = 0
        func make() -> RecordingManifest {
            built += 1
            var manifest = RecordingManifestTests.sample()
            manifest.durationMs = Int64(built)
            return manifest
        }
        #expect(try writer.refreshIfDue(now: start, make))  // nothing written yet
        #expect(try !writer.refreshIfDue(now: start + .milliseconds(1999), make))
        #expect(try writer.refreshIfDue(now: start + .seconds(2), make))
        #expect(try !writer.refreshIfDue(now: start + .seconds(3), make))
        try writer.write(make(), now: start + .seconds(3.5))  // an explicit write restarts the interval
        #expect(try !writer.refreshIfDue(now: start + .seconds(5), make))
        #expect(try writer.refreshIfDue(now: start + .seconds(5.5), make))
        #expect(built == 4)
        #expect(writer.writes == 4)
        let onDisk = try RecordingManifest.decode(try Data(contentsOf: URL(fileURLWithPath: writer.path)))
        #expect(onDisk.durationMs == 4)
    }

    @Test func failsWithTheReasonWhenTheDirectoryIsGone() throws {
        let directory = try TestDirectory()
        let writer = ManifestWriter(directory: directory.file("missing"))
        do {
            try writer.write(RecordingManifestTests.sample())
            Issue.record("wrote into a missing directory")
        } catch {
            #expect(error.operation == "open" && error.reason == "No such file or directory", "\(error)")
            #expect(error.path.hasPrefix(directory.file("missing/.manifest.json.\(getpid()).")) && error.path.hasSuffix(".tmp"), "\(error)")
        }
        directory.remove()
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "mounting a tmpfs needs root"))
    func theLastManifestIsWrittenOnAFullDisk() async throws {
        let disk = try await SmallFileSystem(bytes: 1 << 20)
        defer { disk.remove() }
        let writer = ManifestWriter(directory: disk.path)
        var manifest = RecordingManifestTests.sample()
        try writer.write(manifest)
        #expect(writer.holdsReserve)
        disk.fill()
        manifest.state = .failed
        manifest.error = "the disk is full"
        // A refresh fails like any other write on a full disk, and leaves the reserve alone...
        #expect(throws: SinkError.self) { try writer.write(manifest) }
        #expect(writer.holdsReserve)
        // ...which the last manifest then uses.
        try writer.writeFinal(manifest)
        #expect(!writer.holdsReserve)
        let onDisk = try RecordingManifest.decode(try Data(contentsOf: URL(fileURLWithPath: writer.path)))
        #expect(onDisk.state == .failed)
        #expect(onDisk.error == "the disk is full")
        #expect(!FileManager.default.fileExists(atPath: disk.file(".manifest.reserve")))
    }
}
