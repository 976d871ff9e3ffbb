import Foundation

/// The Janus core token the shared lab wants right now. Other users of the machine-wide lab may
/// turn token auth on or off between runs (scripts/lab --token-secret), so it is read from the
/// lab's env file before each run and minted with `agentd token`.
enum LabToken {
    /// Nil when the lab has no token auth.
    static func current(agentd: String) throws(BenchError) -> String? {
        guard let secret = RecordOptions.labValue("LAB_TOKEN_SECRET") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: agentd)
        process.arguments = ["token", "--secret", secret, "--ttl", "3600"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchError("cannot run \(agentd) token: \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, !token.isEmpty else {
            throw BenchError("\(agentd) token failed (status \(process.terminationStatus))")
        }
        return token
    }
}
