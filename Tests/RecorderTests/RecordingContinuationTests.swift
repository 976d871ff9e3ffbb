import Foundation
import Testing

@testable import Recorder

/// What `--continue` makes of a directory (``RecordingContinuation/load``), and what it refuses:
/// every refusal leaves the directory exactly as it was, even through ``RoomRecorder``'s init.
@Suite struct RecordingContinuationTests {
    static let room = "demo"
    static let now = RecordingManifestContinuationTests.startedAt.addingTimeInterval(20)

    /// Every entry of the directory, hidden ones too, with its bytes and modification time.
    static func snapshot(_ directory: TestDirectory) throws -> [String: (bytes: Data, modified: Date?)] {
        var result: [String: (Data, Date?)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let path = directory.file(name)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            result[name] = ((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), attributes[.modificationDate] as? Date)
        }
        return result
    }

    static func expectUnchanged(_ directory: TestDirectory, since before: [String: (bytes: Data, modified: Date?)],
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let after = try snapshot(directory)
        #expect(after.keys.sorted() == before.keys.sorted(), sourceLocation: sourceLocation)
        for (name, entry) in before {
            #expect(after[name]?.bytes == entry.bytes && after[name]?.modified == entry.modified, "\(name) changed",
                    sourceLocation: sourceLocation)
        }
    }

    /// Tries both ways a continuation starts (the check before joining, and the recorder itself)
    /// and expects `expected` from each, with the directory untouched.
    static func expectRefused(_ directory: TestDirectory, _ expected: RecordingContinuationError,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try snapshot(directory)
        let recordingDirectory = RecordingDirectory(path: directory.path)
        #expect(throws: expected, sourceLocation: sourceLocation) {
            try RecordingContinuation.load(directory: recordingDirectory, room: room, startingAt: now)
        }
        #expect(throws: RoomRecorderError.continuation(expected), sourceLocation: sourceLocation) {
            try RoomRecorder(directory: recordingDirectory, room: room, server: "ws://x/", startedAt: now, continuing: true)
        }
        try expectUnchanged(directory, since: before, sourceLocation: sourceLocation)
    }

    static func writeManifest(_ manifest: RecordingManifest, in directory: TestDirectory) throws {
        try manifest.encodedJSON().write(to: URL(fileURLWithPath: directory.file("manifest.json")))
    }

    @Test("a missing or empty directory (hidden leftovers aside) is a new recording")
    func missingOrEmptyIsNew() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        #expect(try RecordingContinuation.load(directory: RecordingDirectory(path: directory.file("new")), room: Self.room, startingAt: Self.now) == nil)
        #expect(try RecordingContinuation.load(directory: RecordingDirectory(path: directory.path), room: Self.room, startingAt: Self.now) == nil)
        #expect(FileManager.default.createFile(atPath: directory.file(".manifest.reserve"), contents: Data([0])))
        #expect(try RecordingContinuation.load(directory: RecordingDirectory(path: directory.path), room: Self.room, startingAt: Self.now) == nil)
    }

    @Test("a recording of the room: its timeline, where its manifest ended, and the parts on disk and in the manifest")
    func loadsARecording() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        try Self.writeManifest(RecordingManifestContinuationTests.earlier(), in: directory)
        // A part the killed recorder made after its last manifest refresh.
        #expect(FileManager.default.createFile(atPath: directory.file("Alice.part2.mkv"), contents: Data([1])))
        let continuation = try #require(try RecordingContinuation.load(directory: RecordingDirectory(path: directory.path), room: Self.room,
                                                                       startingAt: Self.now))
        #expect(continuation.startedAt == RecordingManifestContinuationTests.startedAt)
        #expect(continuation.originMs == 20_000 && continuation.earlierEndMs == 12_040)
        #expect(continuation.partNumbers.first(for: "Alice.webm") == 3)
        #expect(continuation.partNumbers.first(for: "Bob.wav") == 2)
        #expect(continuation.partNumbers.first(for: "data.jsonl") == 2)
        #expect(continuation.partNumbers.first(for: "mix.wav") == 1)
        #expect(continuation.earlierBytes == Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("manifest.json")))))
    }

    @Test("a WAV that got further than the manifest (a kill between refreshes) moves the gap's start to its end")
    func wavLengthRefinesTheEarlierEnd() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        try Self.writeManifest(RecordingManifestContinuationTests.earlier(), in: directory)
        let wav = try TimelineWAVWriter(path: directory.file("Alice.wav"))
        try wav.finish(atSample: 14_000 * 48)
        // Not regular files, or outside the directory: never opened.
        #expect(mkfifo(directory.file("Bob.wav"), 0o600) == 0)
        let continuation = try #require(try RecordingContinuation.load(directory: RecordingDirectory(path: directory.path), room: Self.room,
                                                                       startingAt: Self.now))
        #expect(continuation.earlierEndMs == 14_000)
        let later = try #require(try RecordingContinuation.load(directory: RecordingDirectory(path: directory.path), room: Self.room,
                                                                startingAt: Self.now.addingTimeInterval(-7)))
        #expect(later.earlierEndMs == 13_000, "never past this run's start")
    }

    @Test("another room's manifest is refused untouched")
    func otherRoom() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var manifest = RecordingManifestContinuationTests.earlier()
        manifest.room = "other\nroom"
        try Self.writeManifest(manifest, in: directory)
        try Self.expectRefused(directory, .otherRoom(path: directory.path, room: "other\nroom", expected: Self.room))
        #expect(!RecordingContinuationError.otherRoom(path: "p", room: "other\nroom", expected: "demo").description.contains("\n"))
    }

    @Test("a garbage manifest is refused untouched", arguments: [Array("not json".utf8), [0xFF, 0x00, 0x13], Array(#"{"version":7}"#.utf8)])
    func garbageManifest(bytes: [UInt8]) throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("manifest.json")))
        #expect(FileManager.default.createFile(atPath: directory.file("Alice.webm"), contents: Data([1, 2, 3])))
        let reason: ManifestReadError
        do throws(ManifestReadError) {
            _ = try RecordingManifestReader.parse(bytes)
            Issue.record("read")
            return
        } catch {
            reason = error
        }
        try Self.expectRefused(directory, .manifest(path: directory.path, reason))
    }

    @Test("files without a manifest are refused untouched")
    func filesWithoutManifest() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        #expect(FileManager.default.createFile(atPath: directory.file("notes.txt"), contents: Data("mine".utf8)))
        #expect(FileManager.default.createFile(atPath: directory.file("Alice.webm"), contents: Data([1])))
        try Self.expectRefused(directory, .noManifest(path: directory.path, file: "Alice.webm"))
    }

    @Test("a started_at after now is refused untouched")
    func startedInTheFuture() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var manifest = RecordingManifestContinuationTests.earlier()
        manifest.startedAt = Self.now.addingTimeInterval(60)
        try Self.writeManifest(manifest, in: directory)
        try Self.expectRefused(directory, .timelineOutOfRange(path: directory.path, startedAt: RecordingManifest.formatDate(manifest.startedAt)))
    }
}
