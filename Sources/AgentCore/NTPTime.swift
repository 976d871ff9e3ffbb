/// Conversions between 64-bit NTP timestamps (RFC 5905 §6, as carried in RTCP SRs, RFC 3550
/// §4) and Unix time in nanoseconds.
///
///      0                   1                   2                   3
///      0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                 seconds since 1900-01-01 00:00 UTC            |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                 fraction of a second (1/2^32 s)               |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///
/// The seconds field wraps in February 2036 (era 1). As RFC 4330 §3 suggests, a seconds value
/// with its top bit clear is read as era 1, so the conversion stays right until 2104; times
/// before 1968 are therefore not representable, which no live RTP sender produces.
public enum NTPTime {
    /// Seconds from 1900-01-01 (NTP epoch) to 1970-01-01 (Unix epoch): 70 years with 17 leap days.
    public static let unixEpochOffset: Int64 = 2_208_988_800

    /// Unix nanoseconds for a 64-bit NTP timestamp (fraction rounded to the nearest ns).
    public static func unixNanoseconds(fromNTP ntp: UInt64) -> Int64 {
        let seconds = Int64(ntp >> 32)
        let fraction = ntp & 0xFFFF_FFFF
        let era: Int64 = seconds & 0x8000_0000 == 0 ? 1 << 32 : 0
        let fractionNanoseconds = Int64((fraction * 1_000_000_000 + (1 << 31)) >> 32)
        return (seconds + era - unixEpochOffset) * 1_000_000_000 + fractionNanoseconds
    }

    /// The 64-bit NTP timestamp for Unix nanoseconds (fraction rounded to the nearest 1/2^32 s).
    /// The seconds field wraps modulo 2^32, as on the wire.
    public static func ntp(fromUnixNanoseconds nanoseconds: Int64) -> UInt64 {
        var seconds = nanoseconds / 1_000_000_000
        var remainder = nanoseconds % 1_000_000_000
        if remainder < 0 {
            seconds -= 1
            remainder += 1_000_000_000
        }
        var fraction = (UInt64(remainder) << 32 + 500_000_000) / 1_000_000_000
        if fraction > 0xFFFF_FFFF {  // rounding carried into the next second
            fraction = 0
            seconds += 1
        }
        let ntpSeconds = UInt64(truncatingIfNeeded: seconds + unixEpochOffset) & 0xFFFF_FFFF
        return ntpSeconds << 32 | fraction
    }

    /// The middle 32 bits of an NTP timestamp (16.16 fixed point), as in an RR's LSR field.
    public static func compact(_ ntp: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: ntp >> 16) }
}
