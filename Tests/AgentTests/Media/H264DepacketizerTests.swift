import Testing

@testable import Agent
@testable import AgentMedia

@Suite struct H264DepacketizerTests {
    typealias Stream = H264TestStream

    static func fragment(_ payload: [UInt8]) throws -> H264Depacketizer.Fragment {
        try payload.withUnsafeBytes { (bytes) throws in try H264Depacketizer.fragment(of: bytes) }
    }

    static func annexB(_ payload: [UInt8]) throws -> [UInt8] {
        var output: [UInt8] = []
        try payload.withUnsafeBytes { (bytes) throws in try H264Depacketizer.appendAnnexB(of: bytes, to: &output) }
        return output
    }

    @Test func aSingleNALUnitPacketIsItsNALUnitAfterAStartCode() throws {
        let fragment = try Self.fragment(Stream.sps)
        #expect(fragment.structure == .singleNALUnit)
        #expect(fragment.firstNALUnitType == .sequenceParameterSet)
        #expect(fragment.startsAccessUnit && !fragment.containsIDRSlice)
        #expect(try Self.annexB(Stream.sps) == [0, 0, 0, 1] + Stream.sps)
    }

    @Test func aSTAPAIsEachOfItsNALUnitsAfterAStartCode() throws {
        let payload: [UInt8] = [
            0x78,  // F=0 NRI=3 type 24 (STAP-A)
            0x00, 0x16,  // 22 bytes: the SPS
        ] + Stream.sps + [
            0x00, 0x04,  // 4 bytes: the PPS
        ] + Stream.pps
        let fragment = try Self.fragment(payload)
        #expect(fragment.structure == .aggregation(count: 2))
        #expect(fragment.firstNALUnitType == .sequenceParameterSet)
        #expect(fragment.startsAccessUnit)
        #expect(!fragment.containsIDRSlice, "SPS and PPS alone are no keyframe")
        #expect(try Self.annexB(payload) == Stream.annexB([Stream.sps, Stream.pps]))
    }

    @Test func aFUAStartRebuildsTheHeaderAndLaterPiecesAddTheirBytesOnly() throws {
        let start: [UInt8] = [
            0x7C,  // FU indicator: F=0 NRI=3 type 28
            0x85,  // FU header: S=1 E=0 R=0 type 5
        ] + Stream.idrSlice0[1..<8]
        let middle: [UInt8] = [0x7C, 0x05] + Stream.idrSlice0[8..<14]
        let end: [UInt8] = [0x7C, 0x45] + Stream.idrSlice0[14...]
        #expect(try Self.fragment(start) == .init(structure: .fragment(start: true, end: false), firstNALUnitType: .idrSlice,
                                                  startsAccessUnit: true, containsIDRSlice: true))
        #expect(try Self.fragment(middle) == .init(structure: .fragment(start: false, end: false), firstNALUnitType: .idrSlice,
                                                   startsAccessUnit: false, containsIDRSlice: true))
        #expect(try Self.fragment(end).structure == .fragment(start: false, end: true))
        let bytes = try Self.annexB(start) + Self.annexB(middle) + Self.annexB(end)
        #expect(bytes == Stream.annexB([Stream.idrSlice0]))
    }

    /// F and NRI come from the FU indicator, the type from the FU header; R is ignored (§5.8).
    @Test func theRebuiltHeaderTakesFAndNRIFromTheIndicator() throws {
        #expect(try Self.annexB([0xBC, 0xA1, 0x9A]) == [0, 0, 0, 1, 0xA1, 0x9A])  // F=1 NRI=1; R=1 dropped
        #expect(try Self.annexB([0x1C, 0x81, 0x9A]) == [0, 0, 0, 1, 0x01, 0x9A])  // NRI=0
    }

    /// H.264 §7.4.1.2.3: AUD, SEI, SPS, PPS open an access unit, and so does a slice whose
    /// first_mb_in_slice is 0; a picture's later slices and other NAL units do not.
    @Test(arguments: [
        ([0x09, 0xF0], true),  // access unit delimiter
        ([0x06, 0x05, 0x01, 0x80], true),  // SEI
        (H264TestStream.sps, true),
        (H264TestStream.pps, true),
        (H264TestStream.idrSlice0, true),
        (H264TestStream.idrSlice1, false),  // first_mb_in_slice != 0
        (H264TestStream.pSlice0, true),
        (H264TestStream.pSlice1, false),
        ([0x22, 0x80], true),  // slice data partition A with first_mb_in_slice 0
        ([0x23, 0x80], false),  // partition B has no slice header
        ([0x0C, 0xFF, 0x80], false),  // filler data
        ([0x0A], false),  // end of sequence
        ([0x01], false),  // a slice with no byte to read first_mb_in_slice from
        ([0x11, 0x80], false),  // reserved type 17: passed through, opens nothing
    ] as [([UInt8], Bool)])
    func whatStartsAnAccessUnit(payload: [UInt8], starts: Bool) throws {
        #expect(try Self.fragment(payload).startsAccessUnit == starts)
        // The same NAL unit first in a STAP-A, or opened by a FU-A, says the same.
        let stap = [0x18, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload + [0x00, 0x01, 0x0A]
        #expect(try Self.fragment(stap).startsAccessUnit == starts)
        let fuStart: [UInt8] = [payload[0] & 0xE0 | 28, 0x80 | payload[0] & 0x1F] + payload.dropFirst()
        #expect(try Self.fragment(fuStart).startsAccessUnit == starts)
    }

    @Test func aSTAPAWhoseLaterUnitIsAnIDRSliceCarriesOne() throws {
        let payload: [UInt8] = [0x78, 0x00, 0x04] + Stream.pps + [0x00, 0x14] + Stream.idrSlice0
        let fragment = try Self.fragment(payload)
        #expect(fragment.firstNALUnitType == .pictureParameterSet && fragment.containsIDRSlice)
    }

    /// The access units libavformat sent: SPS and slices in FU-A, the PPS alone, P slices in a STAP-A.
    @Test func libavformatPayloadsGiveBackTheEncodedStream() throws {
        var keyframe: [UInt8] = []
        for (payload, _) in Stream.ffmpegKeyframePayloads { keyframe += try Self.annexB(payload) }
        #expect(keyframe == Stream.annexB([Stream.sps, Stream.pps, Stream.idrSlice0, Stream.idrSlice1]))
        let fragments = try Stream.ffmpegKeyframePayloads.map { try Self.fragment($0.0) }
        #expect(fragments.map(\.startsAccessUnit) == [true, false, true, true, false, false, false])
        #expect(fragments.map(\.containsIDRSlice) == [false, false, false, true, true, true, true])
        #expect(try Self.annexB(Stream.ffmpegPFramePayload) == Stream.annexB([Stream.pSlice0, Stream.pSlice1]))
        #expect(try Self.fragment(Stream.ffmpegPFramePayload).startsAccessUnit)
    }

    @Test(arguments: [
        ([], H264PayloadError.emptyPayload),
        ([0x19, 0x00, 0x01, 0x00, 0x01, 0x67], .interleavedModePacket(type: 25)),  // STAP-B
        ([0x1A, 0x00], .interleavedModePacket(type: 26)),  // MTAP16
        ([0x1B, 0x00], .interleavedModePacket(type: 27)),  // MTAP24
        ([0x1D, 0x85, 0x00, 0x01, 0x88], .interleavedModePacket(type: 29)),  // FU-B
        ([0x00, 0x01], .undefinedPacketType(0)),
        ([0x1E], .undefinedPacketType(30)),
        ([0x7F, 0x01], .undefinedPacketType(31)),
        ([0x78], .emptyAggregation),  // STAP-A header only
        ([0x78, 0x00], .truncatedAggregationUnit(offset: 1)),  // half a size field
        ([0x78, 0x00, 0x05, 0x67, 0x42], .truncatedAggregationUnit(offset: 1)),  // 5 bytes announced, 2 there
        ([0x78, 0x00, 0x00], .truncatedAggregationUnit(offset: 1)),  // a zero size
        ([0x78, 0x00, 0x01, 0x09, 0x00], .truncatedAggregationUnit(offset: 4)),  // a stray byte after the first unit
        ([0x78, 0x00, 0x02, 0x7C, 0x85], .nestedPacketType(28)),  // a FU-A inside a STAP-A
        ([0x78, 0x00, 0x01, 0x18], .nestedPacketType(24)),
        ([0x78, 0x00, 0x01, 0x00], .nestedPacketType(0)),
        ([0x7C], .truncatedFragmentationUnit),
        ([0x7C, 0xC5, 0x88], .fragmentStartsAndEnds),
        ([0x7C, 0x98, 0x00], .nestedPacketType(24)),  // a fragmented STAP-A
        ([0x7C, 0x9C, 0x00], .nestedPacketType(28)),  // a fragmented FU-A
    ] as [([UInt8], H264PayloadError)])
    func malformedAndUnnegotiatedPayloadsAreTypedErrors(payload: [UInt8], error: H264PayloadError) {
        #expect(throws: error) { try Self.fragment(payload) }
        #expect(throws: error) { try Self.annexB(payload) }
    }

    @Test func errorsReadAsSentences() {
        #expect(H264PayloadError.interleavedModePacket(type: 25).description
            == "packet type 25 belongs to the interleaved mode, which was not negotiated")
        #expect(H264PayloadError.truncatedAggregationUnit(offset: 4).description == "the STAP-A aggregation unit at byte 4 is truncated")
    }

    /// Two bytes of FU-A are a piece without data: harmless, and accepted.
    @Test func anEmptyFUAPieceAddsNothingOrAHeader() throws {
        #expect(try Self.annexB([0x7C, 0x05]) == [])
        #expect(try Self.annexB([0x7C, 0x85]) == [0, 0, 0, 1, 0x65])
        #expect(try Self.fragment([0x7C, 0x81]).startsAccessUnit == false)
    }

    @Test func nalUnitTypesReadTheLowFiveBits() {
        #expect(H264NALUnitType(header: 0x67) == .sequenceParameterSet)
        #expect(H264NALUnitType(header: 0x7C) == .fuA)
        #expect(H264NALUnitType(header: 0x00) == nil)
        #expect(H264NALUnitType(header: 0x17) == nil)  // 23: reserved
        #expect(H264NALUnitType.allCases.filter(\.isVCL) == [.nonIDRSlice, .sliceDataPartitionA, .sliceDataPartitionB, .sliceDataPartitionC, .idrSlice])
        #expect(H264NALUnitType.allCases.filter(\.isRTPPacketType).map(\.rawValue) == Array(24...29))
    }
}
