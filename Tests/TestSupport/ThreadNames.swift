import Foundation

/// The names of a process's threads as Linux keeps them (/proc/PID/task/TID/comm, at most 15
/// bytes), to count the threads a component started.
public struct ThreadNames: Sendable {
    /// One name per live thread (repeated names repeat), in no particular order.
    public let names: [String]

    public init(names: [String]) {
        self.names = names
    }

    /// The threads of `pid`; a thread that ends while they are read is left out.
    public static func of(pid: Int32) -> ThreadNames {
        read(task: "/proc/\(pid)/task")
    }

    /// The threads of this process.
    public static var current: ThreadNames { read(task: "/proc/self/task") }

    /// The calling thread's name ("" if /proc cannot say).
    public static var callingThread: String { name(at: "/proc/thread-self/comm") ?? "" }

    private static func name(at path: String) -> String? {
        guard let comm = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return comm.hasSuffix("\n") ? String(comm.dropLast()) : comm
    }

    private static func read(task directory: String) -> ThreadNames {
        let tids = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return ThreadNames(names: tids.compactMap { name(at: "\(directory)/\($0)/comm") })
    }

    /// The threads whose name starts with `prefix`.
    public func count(prefix: String) -> Int {
        names.filter { $0.hasPrefix(prefix) }.count
    }

    /// Threads per name, for a failure message.
    public var summary: String {
        Dictionary(grouping: names, by: { $0 }).map { "\($0.key)×\($0.value.count)" }.sorted().joined(separator: " ")
    }
}
