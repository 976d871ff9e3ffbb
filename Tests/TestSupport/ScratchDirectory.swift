import Foundation

/// A fresh directory under the system temp dir for one test, removed when released.
public final class ScratchDirectory {
    public let directory: URL

    public init(_ label: String = "scratch") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// Runs a tool (ffmpeg, ffprobe, mkvinfo…) to its end and returns its status and stdout;
/// stderr is merged in when `includeStderr` is set.
@discardableResult
public func runTool(_ executable: String, _ arguments: [String], includeStderr: Bool = false) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = includeStderr ? output : FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
