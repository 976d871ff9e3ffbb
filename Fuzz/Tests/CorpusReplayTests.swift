import Foundation
import FuzzTargets
import Testing

/// The committed corpora run through their targets in every `swift test`, so a parser change
/// that traps on a seed (or on an input a fuzzing run kept) fails the suite, not only a fuzz run.
@Suite struct CorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus").path

    @Test(arguments: FuzzTarget.all.map(\.name))
    func corpusReplaysWithoutATrap(name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let count = FuzzCorpus.replay(target, paths: ["\(Self.corpus)/\(name)"])
        #expect(count > 0, "Fuzz/corpus/\(name) has no seeds")
    }

    @Test func everyCorpusFolderNamesATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Set(FuzzTarget.all.map(\.name)))
    }

    /// The corpora stay small: they are seeds, not a fuzzing run's whole output.
    @Test func corporaAreSmall() {
        for target in FuzzTarget.all {
            let files = FuzzCorpus.files(at: ["\(Self.corpus)/\(target.name)"])
            let bytes = files.compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }.reduce(0, +)
            #expect(bytes <= 64 << 10, "Fuzz/corpus/\(target.name) holds \(bytes) bytes")
        }
    }
}
