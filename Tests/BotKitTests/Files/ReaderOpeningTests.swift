import Foundation
import Testing

@testable import Agent
@testable import BotKit

/// The IVF and WebM readers open through MediaFile: a FIFO is refused at once (its open used to
/// block for good) and so is a device such as /dev/zero (its header scan never ended).
@Suite struct ReaderOpeningTests {
    @Test func ivfAndWebMReadersRefuseFIFOsAndDevices() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readeropen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipe = directory.appendingPathComponent("pipe").path
        let zero = directory.appendingPathComponent("zero").path
        #expect(mkfifo(pipe, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        let started = ContinuousClock.now
        for path in [pipe, zero] {
            #expect(throws: IVFError.self) { try IVFReader(path: path) }
            do {
                _ = try WebMReader(path: path)
                Issue.record("\(path) was opened as WebM")
            } catch {
                guard case .cannotOpen(_, let message) = error else { throw error }
                #expect(message.contains("not a regular file"), "\(message)")
            }
        }
        #expect(ContinuousClock.now - started < .seconds(2))
    }
}
