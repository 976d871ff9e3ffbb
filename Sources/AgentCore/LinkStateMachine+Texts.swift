import Foundation

/// The texts a recovery ends with. They are shown to users and asserted by tests and scripts,
/// so they are the same, byte for byte, as those of the two loops this machine and ``LinkDriver``
/// replaced (JanusAudience's recover loop and Bot's rejoin loop): change them only on purpose.
extension LinkStateMachine {
    /// What an ICE restart that missed its deadline failed with: the text of
    /// `PeerConnectionError.iceFailed`, which JanusAudience's restart throws at its timeout. A
    /// string here because this value sits below the PeerConnection.
    static let iceRestartTimedOut = "ICE failed: no candidate pair worked"

    /// What a media failure is reported as; a driver that cannot restart ICE says it in a
    /// ``Event/linkLost(generation:reason:)`` (JanusAudience with no subscription yet).
    package static func mediaFailure(_ reason: String) -> String {
        "media failed: \(reason)"
    }

    static func iceRestartFailure(after reason: String, error: String) -> String {
        "\(reason); ICE restart failed: \(error)"
    }

    /// Why retrying stopped after `attempts` attempts, `elapsed` after the drop.
    func gaveUpText(attempts: Int, elapsed: Duration, _ recovery: Recovery) -> String {
        switch configuration.wording {
        case .link:
            let seconds = Double(elapsed.totalNanoseconds) / 1e9
            return "gave up after \(attempts) attempt(s) in \(String(format: "%.1f", seconds)) s: \(recovery.lastError)"
        case .rejoin:
            // Told never to retry, the bot reports the drop as it came.
            guard configuration.reconnect.maximumAttempts != 0 else { return recovery.reason }
            return "\(recovery.reason); gave up after \(attempts) attempt(s) to rejoin"
        }
    }

    /// Why a rejoin refused with `error` ended the recovery.
    func refusedText(_ error: String, _ recovery: Recovery) -> String {
        switch configuration.wording {
        case .link: error
        case .rejoin: "\(recovery.reason); rejoining was refused: \(error)"
        }
    }
}
