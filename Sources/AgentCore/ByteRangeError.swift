/// A read from a ``ByteReader`` or a write into a ``ByteWriter`` that does not fit: `wanted`
/// bytes at `offset` run past the `count` bytes of the buffer (or `wanted` is negative).
public struct ByteRangeError: Error, Equatable, Sendable {
    /// Where the access started, counted from the start of the buffer.
    public let offset: Int
    /// How many bytes it asked for.
    public let wanted: Int
    /// How many bytes the buffer holds in all.
    public let count: Int

    /// The length the buffer would need for the access to fit (saturating: `wanted` may be a
    /// garbage length from the input).
    public var needed: Int {
        let (sum, overflow) = offset.addingReportingOverflow(max(wanted, 0))
        return overflow ? Int.max : sum
    }

    /// Checks that `wanted` bytes at `offset` lie within `count` bytes, and returns `offset`.
    @inline(__always)
    static func check(_ wanted: Int, at offset: Int, in count: Int) throws(ByteRangeError) -> Int {
        // `wanted` can come from the input (a declared length): compare without adding, so a
        // huge or negative count is refused instead of overflowing.
        guard wanted >= 0, wanted <= count - offset else {
            throw ByteRangeError(offset: offset, wanted: wanted, count: count)
        }
        return offset
    }
}

extension ByteRangeError: CustomStringConvertible {
    public var description: String {
        "\(wanted) bytes at offset \(offset) run past the end of \(count) bytes"
    }
}
