import Foundation
import Testing

@testable import Agent
@testable import AgentMedia

/// Players open only regular files: a FIFO's open would block until a writer comes and a device
/// like /dev/zero never ends, and either used to hold a thread (and, in the daemon, the process).
@Suite struct MediaFileTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mediafile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @Test func refusesFIFOsDevicesAndDirectoriesAtOnce() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(mkfifo(path("pipe.wav"), 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: path("zero.opus"), withDestinationPath: "/dev/zero")
        let started = ContinuousClock.now
        #expect(throws: MediaFileError.notRegularFile(path: path("pipe.wav"), kind: "a FIFO (named pipe)")) {
            _ = try MediaFile.openForReading(path("pipe.wav"))
        }
        #expect(throws: MediaFileError.notRegularFile(path: path("zero.opus"), kind: "a character device")) {
            try MediaFile.checkRegular(path("zero.opus"))
        }
        #expect(throws: MediaFileError.notRegularFile(path: directory.path, kind: "a directory")) {
            try MediaFile.checkRegular(directory.path)
        }
        #expect(ContinuousClock.now - started < .seconds(2), "a FIFO's open must not wait for a writer")
        #expect(throws: MediaFileError.self) { try MediaFile.checkRegular(path("missing.wav")) }
        #expect(MediaFileError.notRegularFile(path: "/x", kind: "a FIFO (named pipe)").description == "/x is a FIFO (named pipe), not a regular file")
    }

    @Test func opensRegularFilesAndSymlinksToThemForBlockingReads() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path("file.wav")))
        try FileManager.default.createSymbolicLink(atPath: path("link.wav"), withDestinationPath: path("file.wav"))
        for name in ["file.wav", "link.wav"] {
            let descriptor = try MediaFile.openForReading(path(name))
            defer { close(descriptor) }
            #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK == 0, "the readers expect blocking reads")
            var bytes = [UInt8](repeating: 0, count: 5)
            #expect(read(descriptor, &bytes, 5) == 5)
            #expect(bytes == Array("hello".utf8))
            let again = open(MediaFile.reopenPath(descriptor), O_RDONLY)
            #expect(again >= 0)
            close(again)
        }
    }

    /// Each reader goes through MediaFile, so none of them blocks on a FIFO or streams /dev/zero.
    @Test func everyReaderRefusesAFIFO() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(mkfifo(path("pipe"), 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: path("zero"), withDestinationPath: "/dev/zero")
        for name in ["pipe", "zero"] {
            #expect(throws: OggOpusReaderError.self) { try OggOpusReader(path: path(name)) }
            #expect(throws: SoundFileError.self) { try SoundFileReader(path: path(name)) }
        }
    }

    /// A large regular file of garbage fails within the first-page budget, not after reading it all.
    @Test func oggHeaderScanIsBounded() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = path("sparse.opus")
        #expect(FileManager.default.createFile(atPath: garbage, contents: nil))
        #expect(truncate(garbage, 1 << 30) == 0)  // 1 GiB of zeros, sparse
        let started = ContinuousClock.now
        #expect(throws: OggOpusReaderError.notOgg(path: garbage)) {
            try OggOpusReader(path: garbage)
        }
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
