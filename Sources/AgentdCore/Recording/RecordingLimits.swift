/// What ends a recording on its own, besides its planned `duration` and a stop request:
/// `--max-duration`, `--max-bytes`, `--idle-timeout` (the API's and the recorder recipe's
/// `max_duration`, `max_bytes`, `idle_timeout`). The first limit reached ends the recording
/// with `stopped_by: limit` (duration, bytes) or `stopped_by: idle`, and every file is final.
///
/// - ``maxDuration``: seconds from t=0, like `duration`; it differs only in how the end is
///   named, so a caller can tell "ran as planned" from "hit the cap".
/// - ``maxBytes``: the recording's files together, as the manifest refresh measures them (about
///   once a second), so a recording may pass the cap by up to a second of media.
/// - ``idleTimeout``: seconds during which no one published (no publisher in the room), counted
///   from t=0 for a room that starts empty and from the last publisher's leave otherwise.
package struct RecordingLimits: Sendable, Equatable {
    package var maxDuration: Double?
    package var maxBytes: Int64?
    package var idleTimeout: Double?

    /// The daemon's idle timeout when a job does not set one (0 there turns it off).
    package static let daemonIdleTimeout: Double = 60

    /// The largest `max_bytes`: 2^50 (1 PiB), far above any disk, small enough for any sum.
    package static let maximumBytes: Int64 = 1 << 50

    package init(maxDuration: Double? = nil, maxBytes: Int64? = nil, idleTimeout: Double? = nil) {
        self.maxDuration = maxDuration
        self.maxBytes = maxBytes
        self.idleTimeout = idleTimeout
    }

    /// How ``bytes(parsing:)``'s rule reads in an error.
    package static let bytesRule = "a whole number of bytes above 0, optionally with K, M, G or T (powers of 1024), at most 1P"

    /// `500000000`, `800M`, `2G`: a byte count above 0, at most ``maximumBytes``; nil when it is
    /// anything else (a sign, a fraction, an unknown suffix, too many digits).
    package static func bytes(parsing text: String) -> Int64? {
        var digits = Substring(text)
        var multiplier: Int64 = 1
        if let last = digits.last, !last.isNumber {
            let shifts: [Character: Int64] = ["K": 10, "M": 20, "G": 30, "T": 40]
            guard let shift = shifts[Character(last.uppercased())] else { return nil }
            multiplier = 1 << shift
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 16, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int64(digits)
        else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow, bytes > 0, bytes <= maximumBytes else { return nil }
        return bytes
    }

    /// An idle timeout: 0 (off) or a number of seconds above 0, at most a job's longest duration.
    package static func isValidIdleTimeout(_ seconds: Double) -> Bool {
        seconds == 0 || JobDuration.isValid(seconds)
    }

    package static let idleTimeoutRule = "0 (off) or \(JobDuration.rule)"
}
