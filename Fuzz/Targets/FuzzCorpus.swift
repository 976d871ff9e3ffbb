import Foundation

/// Input files for a target: the committed seeds in `Fuzz/corpus/<target>/` and what a fuzzing
/// run found, read back for replay (by `agentd-fuzz replay` and the FuzzTests).
public enum FuzzCorpus {
    /// The regular files at `paths`: a file itself, or every file directly inside a directory,
    /// sorted so replays run in the same order.
    public static func files(at paths: [String]) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// Runs `target` on every file at `paths`; returns how many inputs ran. A trap here is the
    /// bug the input was kept for.
    @discardableResult
    public static func replay(_ target: FuzzTarget, paths: [String]) -> Int {
        var count = 0
        for file in files(at: paths) {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            target([UInt8](data))
            count += 1
        }
        return count
    }
}
