/// Rewrites the RTP timestamps of some SSRCs as a sender whose media clock runs `drift` fast
/// would have stamped them (0.01: 1 % fast): each packet's timestamp moves away from the SSRC's
/// first one by `drift` times its distance, and each of its sender reports' RTP time with it, so
/// the reports still map the packets to the right wall time and a receiver that follows them
/// stays in sync while one that counts RTP time alone drifts.
struct DriftRewriter {
    let ssrcs: Set<UInt32>
    let drift: Double
    /// Per SSRC: the first timestamp seen, and the last one unwrapped past it.
    private var origins: [UInt32: (first: UInt32, last: UInt32, unwrapped: Int64)] = [:]

    init(ssrcs: Set<UInt32>, drift: Double) {
        self.ssrcs = ssrcs
        self.drift = drift
    }

    var isActive: Bool { drift != 0 && !ssrcs.isEmpty }

    /// Rewrites an RTP packet's timestamp in place (a packet shorter than its header is left be).
    mutating func rewriteRTP(_ bytes: UnsafeMutableRawBufferPointer) {
        guard isActive, bytes.count >= 12 else { return }
        let ssrc = Self.read32(bytes, at: 8)
        guard ssrcs.contains(ssrc) else { return }
        Self.write32(bytes, at: 4, moved(Self.read32(bytes, at: 4), ssrc: ssrc))
    }

    /// Rewrites the RTP time of a sender report (RTCP type 200) in place.
    mutating func rewriteSenderReport(_ bytes: UnsafeMutableRawBufferPointer) {
        guard isActive, bytes.count >= 20, bytes[1] == 200 else { return }
        let ssrc = Self.read32(bytes, at: 4)
        guard ssrcs.contains(ssrc) else { return }
        Self.write32(bytes, at: 16, moved(Self.read32(bytes, at: 16), ssrc: ssrc))
    }

    private mutating func moved(_ timestamp: UInt32, ssrc: UInt32) -> UInt32 {
        var origin = origins[ssrc] ?? (timestamp, timestamp, 0)
        origin.unwrapped += Int64(Int32(bitPattern: timestamp &- origin.last))
        origin.last = timestamp
        origins[ssrc] = origin
        let extra = (Double(origin.unwrapped) * drift).rounded()
        guard extra.isFinite, abs(extra) < 4e18 else { return timestamp }
        return timestamp &+ UInt32(truncatingIfNeeded: Int64(extra))
    }

    private static func read32(_ bytes: UnsafeMutableRawBufferPointer, at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func write32(_ bytes: UnsafeMutableRawBufferPointer, at offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }
}
