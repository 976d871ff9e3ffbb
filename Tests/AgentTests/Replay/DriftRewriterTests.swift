import Testing

@testable import AgentSession

/// A drifting sender's timestamps: moved by the drift times their distance from the first, across
/// the 32-bit wrap, with its sender reports' RTP times moved alike and other SSRCs untouched.
@Suite struct DriftRewriterTests {
    static func rtp(ssrc: UInt32, timestamp: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [0x80, 96, 0, 1]
        for value in [timestamp, ssrc] { bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        return bytes + [1, 2, 3]
    }

    static func timestamp(_ bytes: [UInt8], at offset: Int = 4) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    @Test("1 % fast: 10 s of 90 kHz later is 9000 ticks further, across the wrap; other SSRCs untouched")
    func onePercent() {
        var rewriter = DriftRewriter(ssrcs: [7], drift: 0.01)
        let first = UInt32.max - 100_000
        var packets = [Self.rtp(ssrc: 7, timestamp: first), Self.rtp(ssrc: 7, timestamp: first &+ 900_000), Self.rtp(ssrc: 8, timestamp: 5)]
        for index in packets.indices { packets[index].withUnsafeMutableBytes { rewriter.rewriteRTP($0) } }
        #expect(Self.timestamp(packets[0]) == first)
        #expect(Self.timestamp(packets[1]) == first &+ 909_000)
        #expect(Self.timestamp(packets[2]) == 5)
        #expect(packets[1].suffix(3) == [1, 2, 3])

        // A sender report of SSRC 7 at 5 s: its RTP time moves by 4500.
        var report: [UInt8] = [0x80, 200, 0, 6] + [0, 0, 0, 7] + [UInt8](repeating: 0, count: 8)
        report += (0..<4).map { UInt8(truncatingIfNeeded: (first &+ 450_000) >> (24 - 8 * $0)) } + [UInt8](repeating: 0, count: 8)
        report.withUnsafeMutableBytes { rewriter.rewriteSenderReport($0) }
        #expect(Self.timestamp(report, at: 16) == first &+ 454_500)
    }

    @Test("no drift, no SSRCs, or a short packet: nothing changes")
    func inactive() {
        var none = DriftRewriter(ssrcs: [7], drift: 0)
        var packet = Self.rtp(ssrc: 7, timestamp: 1000)
        let original = packet
        packet.withUnsafeMutableBytes { none.rewriteRTP($0) }
        var short: [UInt8] = [0x80, 96, 0]
        var active = DriftRewriter(ssrcs: [7], drift: 0.05)
        short.withUnsafeMutableBytes { active.rewriteRTP($0) }
        #expect(packet == original && short == [0x80, 96, 0])
    }
}
