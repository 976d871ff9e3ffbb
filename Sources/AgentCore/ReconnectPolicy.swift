import Foundation

/// How a channel retries after its connection to the room dropped: exponential backoff with
/// jitter, bounded by a number of attempts and/or a total time.
///
/// The nominal delay before attempt *n* (counting from 1) is
/// `min(maximumDelay, initialDelay × multiplier^(n-1))`: with the defaults 0.5 s, 1 s, 2 s, 4 s,
/// 8 s, 8 s, …. Each actual delay is the nominal one scaled by a random factor in
/// `1 ± jitter`, so many agents that lost the same server do not all come back in the same
/// instant. Retrying stops when ``maximumAttempts`` attempts were made or ``maximumDuration``
/// has passed since the drop; the last delay is cut so the last attempt starts at that limit.
///
/// A pure value: ``delay(beforeAttempt:elapsed:using:)`` takes the elapsed time and the random
/// source, so a schedule is tested without clocks.
public struct ReconnectPolicy: Sendable, Equatable {
    public var initialDelay: Duration
    public var maximumDelay: Duration
    /// Growth of the nominal delay per attempt (≥ 1).
    public var multiplier: Double
    /// Relative spread of each delay around its nominal value, 0...1 (0.2: ±20 %).
    public var jitter: Double
    /// Attempts before giving up; nil: no limit by count.
    public var maximumAttempts: Int?
    /// Time since the drop after which no new attempt starts; nil: no limit by time.
    public var maximumDuration: Duration?

    public init(
        initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(8), multiplier: Double = 2,
        jitter: Double = 0.2, maximumAttempts: Int? = nil, maximumDuration: Duration? = .seconds(120)
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.maximumAttempts = maximumAttempts
        self.maximumDuration = maximumDuration
    }

    /// The defaults: 0.5 s doubling to 8 s, ±20 % jitter, for up to 2 minutes.
    public static let standard = ReconnectPolicy()
    /// No reconnecting: a drop ends the channel at once.
    public static let never = ReconnectPolicy(maximumAttempts: 0)

    /// The delay before attempt `attempt` without jitter.
    public func nominalDelay(beforeAttempt attempt: Int) -> Duration {
        let base = max(0, Self.seconds(initialDelay))
        let ceiling = max(base, Self.seconds(maximumDelay))
        let growth = max(1, multiplier)
        // Past ~60 doublings the power overflows to infinity; min() keeps the ceiling.
        let exponent = Double(min(max(0, attempt - 1), 1024))
        return .seconds(min(ceiling, base * pow(growth, exponent)))
    }

    /// The delay to wait before attempt `attempt` (from 1) when `elapsed` has passed since the
    /// drop, or nil when the policy says to give up instead.
    public func delay(
        beforeAttempt attempt: Int, elapsed: Duration, using random: inout some RandomNumberGenerator
    ) -> Duration? {
        guard attempt >= 1 else { return .zero }
        if let maximumAttempts, attempt > maximumAttempts { return nil }
        let spread = min(1, max(0, jitter))
        let factor = spread > 0 ? Double.random(in: (1 - spread)...(1 + spread), using: &random) : 1
        var delay = Duration.seconds(Self.seconds(nominalDelay(beforeAttempt: attempt)) * factor)
        if let maximumDuration {
            guard elapsed < maximumDuration else { return nil }
            delay = min(delay, maximumDuration - elapsed)
        }
        return delay
    }

    /// ``delay(beforeAttempt:elapsed:using:)`` with the system's random numbers.
    public func delay(beforeAttempt attempt: Int, elapsed: Duration) -> Duration? {
        var random = SystemRandomNumberGenerator()
        return delay(beforeAttempt: attempt, elapsed: elapsed, using: &random)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.totalNanoseconds) / 1e9
    }
}
