/// Extends wrapping RTP counters (16-bit sequence numbers, 32-bit timestamps) to 64 bits, so
/// ordering and distances stay right across wrap-around (RFC 3550 Appendix A.1's idea).
///
/// Each new value is placed at the 64-bit position closest to the previous one; a packet that
/// arrives late across a wrap therefore lands before it, not 65536 ahead.
public struct SequenceUnwrapper<Counter: FixedWidthInteger & UnsignedInteger>: Sendable {
    private var last: Int64?

    public init() {}

    /// The 64-bit value of `value`. The first value starts the timeline at itself.
    public mutating func unwrap(_ value: Counter) -> Int64 {
        let modulus = Int64(1) << Counter.bitWidth
        guard let last else {
            let first = Int64(value)
            self.last = first
            return first
        }
        let lastLow = last & (modulus - 1)
        var delta = Int64(value) - lastLow
        if delta > modulus / 2 { delta -= modulus } else if delta < -modulus / 2 { delta += modulus }
        let unwrapped = last + delta
        // Track the highest value seen, so one very old packet does not drag the reference back.
        if unwrapped > last { self.last = unwrapped }
        return unwrapped
    }

    /// The highest 64-bit value seen so far.
    public var highest: Int64? { last }
}
