/// The Janus core token the shared lab wants right now. Other users of the machine-wide lab may
/// turn token auth on or off between runs (scripts/lab --token-secret), so it is read from the
/// lab's env file before each run and minted with `agentd token`.
enum LabToken {
    /// Nil when the lab has no token auth.
    static func current(agentd: String) throws(BenchError) -> String? {
        guard let secret = LabRunOptions.labValue("LAB_TOKEN_SECRET") else { return nil }
        let (status, output) = try ToolOutput.run(agentd, ["token", "--secret", secret, "--ttl", "3600"])
        let token = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0, !token.isEmpty else { throw BenchError("\(agentd) token failed (status \(status))") }
        return token
    }
}
