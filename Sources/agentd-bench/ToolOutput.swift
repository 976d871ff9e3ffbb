import Foundation

/// Runs a short-lived program (agentd token, agentd participants, ffprobe) to its end and
/// returns its exit status and stdout; stderr is dropped.
enum ToolOutput {
    static func run(_ executable: String, _ arguments: [String]) throws(BenchError) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchError("cannot run \(executable) \(arguments.first ?? ""): \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
