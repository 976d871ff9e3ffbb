import Foundation
import Synchronization

/// One run of a tool (ffmpeg, ffprobe, mkvinfo, sox, mount, nft…) to its end.
public struct ToolRun: Sendable {
    public let status: Int32
    /// What the tool wrote on stdout, and on stderr too when that was merged in.
    public let data: Data
    /// What the tool wrote on stderr when it was kept apart (empty when merged in).
    public let errors: String

    /// ``data`` as text.
    public var output: String { String(decoding: data, as: UTF8.self) }
}

/// Runs a tool to its end and returns its status and output: stderr is merged into the output
/// when `includeStderr` is set, else kept apart in ``ToolRun/errors``. `input` goes to its stdin, for a
/// tool that reads it (its stdin is empty otherwise).
///
/// The wait happens on a thread of its own (``onOwnThread(_:)``): a decode by ffmpeg can take
/// seconds, and a test waiting for it on one of the cooperative pool's two threads starves the
/// in-process code other tests are waiting for.
@discardableResult
public func runTool(_ executable: String, _ arguments: [String], includeStderr: Bool = false, input: String? = nil) async throws -> ToolRun {
    try await onOwnThread { try runToolBlocking(executable, arguments, includeStderr: includeStderr, input: input) }
}

/// ``runTool(_:_:includeStderr:input:)`` on the caller's thread, for what cannot await:
/// LabEnvironment's load (a static initializer, evaluated by the test conditions while the
/// runner plans, before tests run) and SmallFileSystem's teardown (defer and deinit).
@available(*, noasync, message: "blocks its thread until the tool ends: use runTool")
func runToolBlocking(_ executable: String, _ arguments: [String], includeStderr: Bool = false, input: String? = nil) throws -> ToolRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let errors = includeStderr ? output : Pipe()
    let stdin = input.map { _ in Pipe() }
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = stdin ?? FileHandle.nullDevice
    try process.run()
    // stderr and stdin are served beside the stdout read: a tool that fills one pipe while this
    // thread waits on another would never end.
    let helpers = DispatchGroup()
    let errorData = Mutex(Data())
    if !includeStderr {
        helpers.enter()
        Thread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            helpers.leave()
        }.start()
    }
    if let stdin, let input {
        helpers.enter()
        Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
            helpers.leave()
        }.start()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    helpers.wait()
    process.waitUntilExit()
    return ToolRun(status: process.terminationStatus, data: data, errors: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
}
