import Foundation

/// A sound level in dBov, as RFC 6464 §3 defines it: decibels relative to the overload point of
/// the digital system. A full-scale square wave is 0 dBov, a full-scale sine about −3 dBov, and
/// anything at or below −127 dBov counts as silence.
///
/// Three readings of the same value:
/// - ``dBov``: −127 ... 0;
/// - ``rfc6464``: the header-extension value 0 (loudest) ... 127 (silence), i.e. −dBov rounded;
/// - ``linear``: 0 ... 1, the RMS as a fraction of full scale (10^(dBov/20)), the scale WebRTC's
///   `audioLevel` statistic uses.
public struct AudioLevel: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// The quietest level RFC 6464 can express; everything below reads as this.
    public static let floorDBov: Double = -127
    public static let silence = AudioLevel(dBov: floorDBov)

    /// −127 ... 0.
    public let dBov: Double

    /// Clamps to −127 ... 0; NaN is silence.
    public init(dBov: Double) {
        self.dBov = dBov.isNaN ? Self.floorDBov : max(Self.floorDBov, min(0, dBov))
    }

    /// The level of a signal whose mean square (of samples in −1 ... 1) is `meanSquare`.
    public init(meanSquare: Double) {
        guard meanSquare > 0, meanSquare.isFinite else {
            self = meanSquare.isInfinite ? AudioLevel(dBov: 0) : .silence
            return
        }
        self.init(dBov: 10 * log10(meanSquare))
    }

    /// RFC 6464's 7-bit level: 0 is the loudest, 127 silence.
    public var rfc6464: UInt8 { UInt8((-dBov).rounded()) }

    /// 0 ... 1: the RMS relative to full scale; 0 for silence.
    public var linear: Double { dBov <= Self.floorDBov ? 0 : pow(10, dBov / 20) }

    public static func < (lhs: AudioLevel, rhs: AudioLevel) -> Bool { lhs.dBov < rhs.dBov }

    public var description: String { String(format: "%.1f dBov", dBov) }
}
