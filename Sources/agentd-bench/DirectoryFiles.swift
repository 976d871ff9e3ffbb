import Foundation

/// The regular files under a recording directory, to check that a recorder wrote something.
struct DirectoryFiles: Sendable {
    let count: Int
    /// Files of 0 bytes, or WAV files holding only their 44-byte header.
    let empty: Int
    let bytes: UInt64
    let names: [String]

    init(under path: String, matching suffixes: [String]) {
        var count = 0
        var empty = 0
        var bytes: UInt64 = 0
        var names: [String] = []
        let manager = FileManager.default
        let enumerator = manager.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            guard suffixes.contains(where: { relative.hasSuffix($0) }) else { continue }
            let full = "\(path)/\(relative)"
            guard let attributes = try? manager.attributesOfItem(atPath: full),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            let size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
            count += 1
            bytes += size
            names.append(relative)
            if size == 0 || (relative.hasSuffix(".wav") && size <= 44) { empty += 1 }
        }
        self.count = count
        self.empty = empty
        self.bytes = bytes
        self.names = names.sorted()
    }
}
