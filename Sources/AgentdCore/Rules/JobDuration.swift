/// The longest a job may be asked to run: 7 days. One limit for `--duration` (record, play,
/// bot), the API's `duration` and a recipe's `duration`, so none of them can hand the timers a
/// number they cannot hold (and a week-long job is already a mistake worth a clear error).
package enum JobDuration {
    package static let maximumSeconds: Double = 7 * 86_400

    /// Above zero, finite, and at most ``maximumSeconds``.
    package static func isValid(_ seconds: Double) -> Bool {
        seconds > 0 && seconds.isFinite && seconds <= maximumSeconds
    }

    /// How the limit reads in an error: "a number of seconds above 0, at most 604800 (7 days)".
    package static let rule = "a number of seconds above 0, at most \(Int(maximumSeconds)) (7 days)"
}
