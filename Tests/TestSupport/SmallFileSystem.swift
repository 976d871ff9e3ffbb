import Foundation

/// A tmpfs of a few megabytes mounted on a fresh directory, for tests of what happens when the disk
/// fills. Needs root (CI and scripts/test run as root); ``isAvailable`` says whether this process
/// can mount one. Unmounted and removed by ``remove()`` (and by deinit, as a fallback).
public final class SmallFileSystem {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let path: String
    public let bytes: Int
    private var mounted = true

    /// Whether tests that fill a disk can run here.
    public static var isAvailable: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount") }

    public init(bytes: Int, label: String = "full") async throws {
        self.bytes = bytes
        path = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mount = try await runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path], includeStderr: true)
        guard mount.status == 0 else {
            mounted = false
            try? FileManager.default.removeItem(atPath: path)
            throw Failure(description: "mount tmpfs on \(path) failed (\(mount.status)): \(mount.output)")
        }
    }

    deinit { remove() }

    /// Bytes still free on the file system.
    public var freeBytes: Int {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Fills the file system: until a write fails (`leave` 0), or until about `leave` bytes are
    /// left free. Returns the filler's path.
    @discardableResult
    public func fill(leaving leave: Int = 0, name: String = "filler") -> String {
        let filler = file(name)
        guard let handle = FileHandle(forWritingAtPath: filler) ?? {
            FileManager.default.createFile(atPath: filler, contents: nil)
            return FileHandle(forWritingAtPath: filler)
        }() else { return filler }
        defer { try? handle.close() }
        let chunk = Data(count: 4096)
        while leave == 0 || freeBytes > leave + chunk.count {
            guard (try? handle.write(contentsOf: chunk)) != nil else { break }
        }
        return filler
    }

    /// Blocks for the umount (3 ms here): it runs in `defer` blocks and deinit, which cannot await.
    public func remove() {
        guard mounted else { return }
        mounted = false
        _ = try? runToolBlocking("/bin/umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
    }
}
