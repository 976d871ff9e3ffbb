import Foundation

/// The lab's WHIP server (`scripts/lab whip up`: simple-whip-server in the lab namespace), read
/// from the `whip.env` it writes (`WHIP_URL=http://10.77.0.2:7080/whip`): beside the lab's env
/// file (`.lab/whip/whip.env`) or machine-wide (`/run/agentd-lab/whip.env`).
extension LabEnvironment {
    /// The WHIP server's base URL, or why there is none.
    public static let whip: Result<String, Unavailable> = loadWHIP()

    /// True when a WHIP interop test should run: the lab and its WHIP server are up, or the lab is
    /// required (the test then fails in ``whipURL()`` if the server is missing).
    public static var shouldRunWHIP: Bool {
        guard shouldRun else { return false }
        if case .success = whip { return true }
        return isRequired
    }

    /// The WHIP server's base URL (`…/whip`), or a clear failure.
    public static func whipURL() throws -> String {
        try whip.get()
    }

    private static func loadWHIP() -> Result<String, Unavailable> {
        var candidates = ["/run/agentd-lab/whip.env"]
        if case .success(let lab) = current {
            candidates.insert(URL(fileURLWithPath: lab.envFile).deletingLastPathComponent().appendingPathComponent("whip/whip.env").path, at: 0)
        }
        for path in candidates {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("WHIP_URL=") {
                let url = String(line.dropFirst("WHIP_URL=".count)).trimmingCharacters(in: .whitespaces)
                if !url.isEmpty { return .success(url) }
            }
        }
        return .failure(Unavailable(reason: "no WHIP_URL in \(candidates.joined(separator: " or ")) (run scripts/lab whip up)"))
    }
}
