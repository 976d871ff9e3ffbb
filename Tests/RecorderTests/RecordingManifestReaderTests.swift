import Foundation
import Testing

@testable import Recorder

/// manifest.json read back as hostile input: bounded, typed errors, never a trap.
@Suite struct RecordingManifestReaderTests {
    static let valid = Array(#"""
    {"version":1,"state":"recording","room":"demo","server":"ws://x/","started_at":"2026-11-30T10:42:07.120Z","ended_at":null,
     "participants":[{"id":"1","display":"A","name":"A","joined_ms":0,"left_ms":null,"files":[],
       "stats":{"audio":{"packets":0,"lost":0,"recovered":0,"nacks":0,"plis":0,"keyframes":0,"first_frame_ms":null},
                "video":{"packets":0,"lost":0,"recovered":0,"nacks":0,"plis":0,"keyframes":0,"first_frame_ms":null}}}],
     "written_ms":1234,"future_key":{"nested":[1,2,{"x":null}]}}
    """#.utf8)

    @Test("a manifest reads, written_ms included, unknown keys ignored; what the recorder writes reads back the same")
    func readsAManifest() throws {
        let manifest = try RecordingManifestReader.parse(Self.valid)
        #expect(manifest.room == "demo" && manifest.writtenMs == 1234 && manifest.participants.count == 1)
        let written = try RecordingManifestContinuationTests.earlier().encodedJSON()
        #expect(try RecordingManifestReader.parse(Array(written)) == RecordingManifestContinuationTests.earlier())
    }

    @Test("a date read back formats to the same text, to the millisecond (a continued started_at must not drift)")
    func datesRoundTrip() throws {
        for text in ["2026-12-05T13:48:32.004Z", "2026-11-30T10:42:07.120Z", "2027-01-15T08:00:00.999Z", "1969-12-31T23:59:59.001Z"] {
            let date = try #require(RecordingManifest.parseDate(text))
            #expect(RecordingManifest.formatDate(date) == text)
        }
        #expect(RecordingManifest.formatDate(Date(timeIntervalSince1970: 1_800_000_000.0006)) == "2027-01-15T08:00:00.001Z")
    }

    @Test("each kind of garbage is its own typed error", arguments: [
        ("", "notJSON"), ("{", "notJSON"), ("\u{FF}\u{FE}", "notJSON"), ("[1,2,3]", "badManifest"), ("\"text\"", "badManifest"),
        (#"{"version":1}"#, "badManifest"), (#"{"version":2,"room":"demo"}"#, "unsupportedVersion"),
        (#"{"version":"1"}"#, "badManifest"), ("{} trailing", "notJSON"), (String(repeating: "[", count: 100), "notJSON"),
        (#"{"version":1,"room":"d","server":"s","started_at":"yesterday","participants":[]}"#, "badManifest"),
        (#"{"version":1,"room":"d","server":"s","started_at":"2026-11-30T10:42:07Z","participants":[{"id":1}]}"#, "badManifest"),
        (#"{"version":1,"room":"d","server":"s","started_at":"2026-11-30T10:42:07Z","participants":[],"written_ms":1e400}"#, "notJSON"),
        (#"{"version":1,"room":"d","server":"s","started_at":"2026-11-30T10:42:07Z","participants":[],"written_ms":99999999999999999999}"#,
         "badManifest"),
    ])
    func garbageIsATypedError(text: String, expected: String) {
        var bytes = Array(text.utf8)
        if text == "\u{FF}\u{FE}" { bytes = [0xFF, 0xFE, 0x7B] }
        do throws(ManifestReadError) {
            _ = try RecordingManifestReader.parse(bytes)
            Issue.record("\(text) was read")
        } catch {
            let name = switch error {
            case .notJSON: "notJSON"
            case .badManifest: "badManifest"
            case .unsupportedVersion: "unsupportedVersion"
            default: "\(error)"
            }
            #expect(name == expected, "\(text.prefix(80)): \(error)")
            #expect(!error.description.contains("\n") && error.description.count < 500, "\(error.description)")
        }
    }

    @Test("a file larger than 16 MiB, a FIFO, a directory and a symbolic link are refused without reading them")
    func refusesWhatIsNotASmallRegularFile() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.file("manifest.json")
        #expect(throws: ManifestReadError.missing) { try RecordingManifestReader.read(directory: directory.path) }
        // Sparse: 16 MiB + 1 of nothing, read no further than its size.
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(truncate(path, off_t(RecordingManifestReader.maximumBytes + 1)) == 0)
        #expect(throws: ManifestReadError.tooLarge(limit: RecordingManifestReader.maximumBytes)) {
            try RecordingManifestReader.read(directory: directory.path)
        }
        unlink(path)
        // A FIFO would block a plain open until a writer comes: it is refused at once.
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: ManifestReadError.notARegularFile) { try RecordingManifestReader.read(directory: directory.path) }
        unlink(path)
        #expect(mkdir(path, 0o700) == 0)
        #expect(throws: ManifestReadError.notARegularFile) { try RecordingManifestReader.read(directory: directory.path) }
        rmdir(path)
        let target = directory.file("real.json")
        #expect(FileManager.default.createFile(atPath: target, contents: Data(Self.valid)))
        #expect(symlink(target, path) == 0)
        #expect(throws: ManifestReadError.notARegularFile) { try RecordingManifestReader.read(directory: directory.path) }
    }
}
