import Foundation
import Testing

@testable import Recorder

@Suite struct RecordingDirectoryTests {
    @Test func defaultNameIsRoomDashUTCStamp() {
        let started = Date(timeIntervalSince1970: 1_796_035_327.9)  // 2026-11-30T10:42:07.9Z
        #expect(RecordingDirectory.defaultName(room: "demo", startedAt: started) == "demo-20261130T104207Z")
        #expect(RecordingDirectory.defaultName(room: "1234", startedAt: Date(timeIntervalSince1970: 1_767_323_045))
            == "1234-20260102T030405Z")
        #expect(RecordingDirectory(room: "../etc/x y", startedAt: started).path == "./recordings/___etc_x_y-20261130T104207Z")
        #expect(RecordingDirectory(room: "demo", startedAt: started, base: "/srv/rec").path == "/srv/rec/demo-20261130T104207Z")
        #expect(RecordingDirectory(path: "out/here").path == "out/here")
        #expect(RecordingDirectory(path: "/a/b").filePath("mix.wav") == "/a/b/mix.wav")
    }

    @Test func checkWritableCreatesMissingDirectoriesAndLeavesNoProbe() throws {
        let base = try TestDirectory()
        defer { base.remove() }
        let directory = RecordingDirectory(path: base.file("deep/er/rec"))
        try directory.checkWritable()
        try directory.checkWritable()  // existing: fine too
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    @Test func aPathUnderARegularFileGivesTheTypedError() throws {
        // Tests run as root, so permissions cannot make a directory unwritable; a file in the way can.
        let base = try TestDirectory()
        defer { base.remove() }
        let file = base.file("plain")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let under = RecordingDirectory(path: file + "/rec/sub")
        #expect(throws: RecordingDirectoryError.notWritable(path: file + "/rec/sub", operation: "create directory \(file)",
                                                            reason: "Not a directory")) {
            try under.checkWritable()
        }
        let itself = RecordingDirectory(path: file)
        #expect(throws: RecordingDirectoryError.notWritable(path: file, operation: "create directory \(file)",
                                                            reason: "Not a directory")) {
            try itself.checkWritable()
        }
        do {
            try under.checkWritable()
        } catch {
            #expect(error.path == file + "/rec/sub")
            #expect(error.description == "cannot write recording to \(file)/rec/sub: create directory \(file) failed: Not a directory")
        }
    }

    /// A probe that fails after mkdir made directories (here: the probe's path is past PATH_MAX)
    /// takes back exactly the directories it made; it used to leave them behind, empty.
    @Test func aFailedProbeRemovesOnlyTheDirectoriesItMade() throws {
        let base = try TestDirectory()
        defer { base.remove() }
        let existing = base.file("existing")
        try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: false)
        var path = existing
        let component = String(repeating: "d", count: 250)
        while path.utf8.count + 251 < 4000 { path += "/" + component }
        path += "/" + String(repeating: "e", count: 4075 - path.utf8.count - 1)  // the probe's path is then past 4095
        let directory = RecordingDirectory(path: path)
        do {
            _ = try directory.prepare(existing: .refuseRecording)
            Issue.record("the probe at \(path.utf8.count) bytes was expected to fail")
        } catch {
            guard case .notWritable(_, let operation, _) = error else { throw error }
            #expect(operation.hasPrefix("create probe file"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: existing) == [], "the directories made for it stayed")
        #expect(FileManager.default.fileExists(atPath: existing), "a directory that was there before was removed")
        #expect(throws: RecordingDirectoryError.self) { try directory.checkWritable() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: existing) == [])
    }

    @Test func existingDirectoriesFollowThePolicy() throws {
        let base = try TestDirectory()
        defer { base.remove() }
        let fresh = RecordingDirectory(path: base.file("a/b"))
        #expect(try fresh.prepare(existing: .refuse) == [base.file("a"), base.file("a/b")])
        #expect(throws: RecordingDirectoryError.alreadyExists(path: fresh.path)) { _ = try fresh.prepare(existing: .refuse) }
        #expect(try fresh.prepare(existing: .refuseRecording) == [], "an empty directory the user made is fine")
        _ = FileManager.default.createFile(atPath: fresh.filePath("notes.txt"), contents: Data("mine".utf8))
        #expect(try fresh.prepare(existing: .refuseRecording) == [], "so is one with files that are not a recording's")
        for name in ["manifest.json", "data.jsonl", "alice.webm", "bob.WAV", "carol.opus", "dave.mkv", "mix.wav"] {
            let other = RecordingDirectory(path: base.file("r-\(name)"))
            _ = try other.prepare(existing: .refuse)
            _ = FileManager.default.createFile(atPath: other.filePath(name), contents: Data("x".utf8))
            #expect(throws: RecordingDirectoryError.holdsRecording(path: other.path, file: name)) {
                _ = try other.prepare(existing: .refuseRecording)
            }
            #expect(try other.prepare(existing: .overwrite) == [])
        }
        #expect(RecordingDirectoryError.holdsRecording(path: "/r", file: "manifest.json").description
            == "/r already holds a recording (manifest.json); it would be overwritten")
        #expect(throws: RecordingDirectoryError.self) { _ = try RecordingDirectory(path: "").prepare(existing: .overwrite) }

        RecordingDirectory.removeCreated([base.file("a"), base.file("a/b")])
        #expect(FileManager.default.fileExists(atPath: fresh.filePath("notes.txt")), "removeCreated only removes empty directories")
        try FileManager.default.removeItem(atPath: fresh.filePath("notes.txt"))
        RecordingDirectory.removeCreated([base.file("a"), base.file("a/b")])
        #expect(!FileManager.default.fileExists(atPath: base.file("a")))
    }

    /// Of many callers racing for one new directory, exactly one gets it.
    @Test func refuseClaimsTheDirectoryAtomically() async throws {
        let base = try TestDirectory()
        defer { base.remove() }
        let path = base.file("race/rec")
        let winners = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask { (try? RecordingDirectory(path: path).prepare(existing: .refuse)) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(winners == 1)
    }
}
