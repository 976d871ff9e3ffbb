import Foundation
import TestSupport
import Testing

@testable import Recorder

@Suite struct FileByteSinkTests {
    @Test(.enabled(if: SmallFileSystem.isAvailable, "mounting a tmpfs needs root"))
    func anAppendThatDoesNotFitLeavesNoPartOfItself() async throws {
        let disk = try await SmallFileSystem(bytes: 1 << 20)
        defer { disk.remove() }
        disk.fill(leaving: 64 * 1024)
        let sink = try FileByteSink(path: disk.file("out.bin"))
        let block = [UInt8](repeating: 0xA5, count: 10_000)
        var whole: Int64 = 0
        var failed = false
        for _ in 0..<100 {
            do {
                try sink.append(block)
                whole += Int64(block.count)
            } catch {
                #expect("\(error)".contains("No space left on device"), "\(error)")
                failed = true
                break
            }
        }
        #expect(failed, "the disk never filled")
        #expect(whole > 0)
        #expect(sink.position == whole)
        try sink.close()
        // The file ends where the last whole append ended: no half block at its end.
        let size = try FileManager.default.attributesOfItem(atPath: disk.file("out.bin"))[.size] as? Int
        #expect(size.map(Int64.init) == whole)
    }
}
