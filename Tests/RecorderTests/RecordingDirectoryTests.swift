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
}
