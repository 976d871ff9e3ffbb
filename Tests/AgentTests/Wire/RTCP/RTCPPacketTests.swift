import Testing

@testable import Agent
@testable import AgentWire

@Suite struct RTCPPacketTests {
    /// SR with one report block, then a PLI, as one compound datagram.
    static let senderReportAndPLI: [UInt8] = [
        0x81, 200, 0x00, 0x0C,  // V=2 RC=1 PT=SR length=12 words
        0x11, 0x22, 0x33, 0x44,  // sender SSRC
        0xE8, 0x00, 0x00, 0x01, 0x80, 0x00, 0x00, 0x00,  // NTP 0xE8000001.80000000
        0x00, 0x00, 0x3A, 0x98,  // RTP time 15000
        0x00, 0x00, 0x00, 0x64,  // packet count 100
        0x00, 0x00, 0x27, 0x10,  // octet count 10000
        0xAA, 0xBB, 0xCC, 0xDD,  // report block: SSRC
        0x40, 0xFF, 0xFF, 0xFE,  // fraction lost 64, cumulative lost -2 (24-bit signed)
        0x00, 0x01, 0x00, 0x05,  // extended highest sequence
        0x00, 0x00, 0x00, 0x20,  // jitter 32
        0x01, 0x02, 0x03, 0x04,  // LSR
        0x00, 0x00, 0x80, 0x00,  // DLSR 0.5 s
        0x81, 206, 0x00, 0x02,  // V=2 FMT=1 PT=PSFB length=2
        0x00, 0x00, 0x00, 0x01,  // sender SSRC
        0x11, 0x22, 0x33, 0x44,  // media SSRC
    ]

    @Test func parsesSenderReportAndPLI() throws {
        let packets = try RTCPPacket.parseCompound(Self.senderReportAndPLI)
        #expect(packets.count == 2)
        guard case .senderReport(let report) = packets[0] else {
            Issue.record("first packet is \(packets[0])")
            return
        }
        #expect(report.ssrc == 0x1122_3344)
        #expect(report.ntpTime == 0xE800_0001_8000_0000)
        #expect(report.compactNTP == 0x0001_8000)
        #expect(report.rtpTime == 15000 && report.packetCount == 100 && report.octetCount == 10000)
        #expect(report.reports == [ReceptionReport(ssrc: 0xAABB_CCDD, fractionLost: 64, cumulativeLost: -2,
            extendedHighestSequence: 0x10005, jitter: 32, lastSenderReport: 0x0102_0304, delaySinceLastSenderReport: 0x8000)])
        #expect(packets[1] == .pictureLoss(PictureLossIndication(senderSSRC: 1, mediaSSRC: 0x1122_3344)))
    }

    @Test func writeReproducesTheBytes() throws {
        var output: [UInt8] = []
        for packet in try RTCPPacket.parseCompound(Self.senderReportAndPLI) { packet.write(into: &output) }
        #expect(output == Self.senderReportAndPLI)
    }

    @Test func nackItemsPackAndUnpack() throws {
        let nack = GenericNACK(senderSSRC: 1, mediaSSRC: 2, lostSequenceNumbers: [65534, 65535, 0, 3, 40])
        #expect(nack.items.map(\.pid) == [65534, 40])
        #expect(nack.items[0].bitmask == 0b1_0011)  // +1, +2, +5
        var bytes: [UInt8] = []
        nack.write(into: &bytes)
        #expect(bytes.count == 20)
        #expect(Array(bytes[0..<4]) == [0x81, 205, 0x00, 0x04])
        #expect(try RTCPPacket.parseCompound(bytes) == [.nack(nack)])
    }

    @Test func firAndByeRoundTrip() throws {
        let packets: [RTCPPacket] = [
            .fullIntraRequest(FullIntraRequest(senderSSRC: 9, entries: [.init(ssrc: 7, sequenceNumber: 3)])),
            .goodbye(Goodbye(sources: [7, 8])),
            .receiverReport(ReceiverReport(ssrc: 5, reports: [ReceptionReport(ssrc: 6, cumulativeLost: 12)])),
        ]
        var bytes: [UInt8] = []
        for packet in packets { packet.write(into: &bytes) }
        #expect(try RTCPPacket.parseCompound(bytes) == packets)
    }

    @Test func unknownTypesAreKeptNotFailed() throws {
        let app: [UInt8] = [0x81, 204, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x41, 0x42, 0x43, 0x44]
        #expect(try RTCPPacket.parseCompound(app) == [.other(packetType: 204, format: 1)])
    }

    @Test func sourceDescriptionCarriesTheCNAME() throws {
        let sdes: [UInt8] = [
            0x81, 202, 0x00, 0x03,  // SC=1, length 3 words
            0x00, 0x00, 0x00, 0x2A,  // SSRC 42
            0x01, 0x03, 0x61, 0x62, 0x63,  // CNAME "abc"
            0x00, 0x00, 0x00,  // END + padding
        ]
        let expected = SourceDescription(chunks: [.init(source: 42, cname: "abc")])
        #expect(try RTCPPacket.parseCompound(sdes) == [.sourceDescription(expected)])
        var written: [UInt8] = []
        expected.write(into: &written)
        #expect(written == sdes)
        let padded = SourceDescription(chunks: [.init(source: 7, cname: "agent")])
        var bytes: [UInt8] = []
        RTCPPacket.receiverReport(ReceiverReport(ssrc: 7, reports: [])).write(into: &bytes)
        padded.write(into: &bytes)
        #expect(try RTCPPacket.parseCompound(bytes).last == .sourceDescription(padded))
        #expect(throws: RTCPError.self) { try RTCPPacket.parseCompound([0x81, 202, 0x00, 0x01, 0, 0, 0, 1]) }
    }

    @Test(arguments: [
        ([0x81, 200], RTCPError.truncated(needed: 4, got: 2)),
        ([0x41, 200, 0x00, 0x00], .badVersion(1)),
        ([0x81, 200, 0x00, 0x0C, 0, 0, 0, 1], .lengthPastEnd(declared: 52, available: 8)),
        ([0x81, 200, 0x00, 0x01, 0, 0, 0, 1], .truncated(needed: 52, got: 8)),
        ([0x81, 205, 0x00, 0x01, 0, 0, 0, 1], .truncated(needed: 16, got: 8)),
        ([0xA1, 206, 0x00, 0x02, 0, 0, 0, 1, 0, 0, 0, 9], .badPadding(9)),
    ] as [([UInt8], RTCPError)])
    func rejectsMalformedDatagrams(bytes: [UInt8], expected: RTCPError) {
        #expect(throws: expected) { try RTCPPacket.parseCompound(bytes) }
    }
}
