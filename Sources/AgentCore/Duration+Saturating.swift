/// Conversions between ``Duration`` and plain numbers that saturate instead of trapping.
///
/// Durations often come from outside: a token's expiry, `--duration`, a recipe, an RTCP field.
/// `Int64(seconds * 1e9)` and `Duration.seconds(_: Double)` trap on a value out of range, which
/// would let one request kill the process; these clamp to what Int64 nanoseconds hold
/// (about ±292 years), which is "never" for every timer here.
extension Duration {
    /// The duration in whole nanoseconds, saturating at the Int64 range instead of trapping.
    public var totalNanoseconds: Int64 { total(perSecond: 1_000_000_000) }

    /// The duration in whole milliseconds (rounded toward zero), saturating at the Int64 range.
    public var totalMilliseconds: Int64 { total(perSecond: 1000) }

    /// Whole units of `1 / perSecond` s (rounded toward zero), saturating at the Int64 range.
    /// `perSecond` divides 10^18, so one unit is a whole number of attoseconds.
    private func total(perSecond: Int64) -> Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: perSecond)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowSum) = scaled.addingReportingOverflow(attoseconds / (1_000_000_000_000_000_000 / perSecond))
        guard !overflowSum else { return seconds < 0 ? .min : .max }
        return sum
    }

    /// `seconds` as a duration, clamped to ±Int64.max nanoseconds; NaN is zero.
    public static func seconds(saturating seconds: Double) -> Duration {
        guard !seconds.isNaN else { return .zero }
        let nanoseconds = seconds * 1_000_000_000
        // 2^63 is the first Double past Int64.max; everything below it converts exactly enough.
        if nanoseconds >= 0x1p63 { return .nanoseconds(Int64.max) }
        if nanoseconds <= -0x1p63 { return .nanoseconds(Int64.min) }
        return .nanoseconds(Int64(nanoseconds))
    }
}
