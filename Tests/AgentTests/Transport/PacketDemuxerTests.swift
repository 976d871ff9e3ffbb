import Testing

@testable import Agent
@testable import AgentTransport

@Suite("PacketDemuxer")
struct PacketDemuxerTests {
    @Test("First-octet ranges of RFC 7983 §7")
    func ranges() {
        // STUN binding request: type 0x0001, length, magic cookie 0x2112A442.
        #expect(PacketDemuxer.classify([0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xA4, 0x42]) == .stun)
        #expect(PacketDemuxer.classify([0x01, 0x01]) == .stun)  // binding success response
        #expect(PacketDemuxer.classify([3]) == .stun)
        #expect(PacketDemuxer.classify([4]) == .unknown)
        #expect(PacketDemuxer.classify([16]) == .zrtp)
        #expect(PacketDemuxer.classify([19]) == .zrtp)
        // DTLS 1.2 handshake record: content type 22, version FE FD.
        #expect(PacketDemuxer.classify([22, 0xFE, 0xFD]) == .dtls)
        #expect(PacketDemuxer.classify([20]) == .dtls)  // change_cipher_spec
        #expect(PacketDemuxer.classify([23]) == .dtls)  // application_data
        #expect(PacketDemuxer.classify([63]) == .dtls)
        #expect(PacketDemuxer.classify([64, 0]) == .turnChannel)
        #expect(PacketDemuxer.classify([79, 0]) == .turnChannel)
        #expect(PacketDemuxer.classify([80]) == .unknown)
        #expect(PacketDemuxer.classify([127, 0]) == .unknown)
        #expect(PacketDemuxer.classify([192, 0]) == .unknown)
        #expect(PacketDemuxer.classify([255, 0]) == .unknown)
    }

    @Test("RTP versus RTCP by the second octet (RFC 5761 §4)")
    func rtpOrRTCP() {
        // V=2 P=0 X=0 CC=0 | M=0 PT=111 (Opus)
        #expect(PacketDemuxer.classify([0x80, 111, 0, 1]) == .rtp)
        // M=1 PT=96 (VP8, last packet of a frame): 0x80 | 96 = 224, just above the RTCP range.
        #expect(PacketDemuxer.classify([0x90, 0xE0]) == .rtp)
        #expect(PacketDemuxer.classify([0x80, 191]) == .rtp)
        #expect(PacketDemuxer.classify([0x80, 200, 0, 6]) == .rtcp)  // sender report
        #expect(PacketDemuxer.classify([0x81, 201, 0, 7]) == .rtcp)  // receiver report
        #expect(PacketDemuxer.classify([0x81, 205]) == .rtcp)  // RTPFB (NACK)
        #expect(PacketDemuxer.classify([0x81, 206]) == .rtcp)  // PSFB (PLI)
        #expect(PacketDemuxer.classify([0x80, 192]) == .rtcp)
        #expect(PacketDemuxer.classify([0x80, 223]) == .rtcp)
        #expect(PacketDemuxer.classify([191, 223]) == .rtcp)
    }

    @Test("Empty and truncated datagrams do not trap")
    func degenerate() {
        #expect(PacketDemuxer.classify([UInt8]()) == .unknown)
        #expect(PacketDemuxer.classify([0x80]) == .unknown, "RTP or RTCP needs the second octet")
        #expect(PacketDemuxer.classify([UInt8](repeating: 0x80, count: 2)[0..<1]) == .unknown)
        #expect(PacketDemuxer.classify([22, 0, 0][1...]) == .stun, "slices classify from their own start")
    }
}
