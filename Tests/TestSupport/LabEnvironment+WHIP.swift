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
        serviceValues("whip/whip.env", machineWide: "/run/agentd-lab/whip.env", hint: "no WHIP_URL: run scripts/lab whip up") {
            !($0["WHIP_URL"] ?? "").isEmpty
        }.map { $0["WHIP_URL"] ?? "" }
    }
}
