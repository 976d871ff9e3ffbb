import Testing

@testable import AgentMedia

@Suite struct H264AccessUnitTests {
    static let sps = H264Fixtures.baseline320x240SPS
    static let pps = H264Fixtures.baseline320x240PPS
    static let idrSlice: [UInt8] = [0x65, 0x88, 0x84, 0x00, 0x00, 0x03, 0x01, 0x7F]
    static let slice: [UInt8] = [0x41, 0x9A, 0x22, 0x4C]

    @Test func keyframeCarriesItsParameterSets() throws {
        let unit = try H264AccessUnit(annexB: H264Fixtures.annexB(Self.sps, Self.pps, Self.idrSlice))
        #expect(unit.isIDR)
        #expect(unit.sequenceParameterSet.map(Array.init) == Self.sps)
        #expect(unit.pictureParameterSets.map(Array.init) == [Self.pps])
        let record = try #require(try unit.configurationRecord())
        #expect(record.parsedSequenceParameterSet.width == 320 && record.parsedSequenceParameterSet.height == 240)
        // Lengths replace start codes; the emulation prevention byte stays (samples are NAL units).
        #expect(unit.sample() == H264Fixtures.lengthPrefixed(Self.sps, Self.pps, Self.idrSlice))
        // It already has its sets: none are added.
        #expect(unit.sample(insertingParameterSetsFrom: record) == H264Fixtures.lengthPrefixed(Self.sps, Self.pps, Self.idrSlice))
    }

    @Test func bareIDRGetsTheRecordsParameterSets() throws {
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSet: Self.sps, pictureParameterSets: [Self.pps])
        let bare = try H264AccessUnit(annexB: H264Fixtures.annexB(Self.idrSlice))
        #expect(bare.isIDR)
        #expect(try bare.configurationRecord() == nil)
        #expect(bare.sample() == H264Fixtures.lengthPrefixed(Self.idrSlice))
        #expect(bare.sample(insertingParameterSetsFrom: record) == H264Fixtures.lengthPrefixed(Self.sps, Self.pps, Self.idrSlice))

        // The access unit delimiter stays first (§7.4.1.2.3).
        let delimited = try H264AccessUnit(annexB: H264Fixtures.annexB([0x09, 0x10], Self.idrSlice))
        #expect(delimited.sample(insertingParameterSetsFrom: record)
            == H264Fixtures.lengthPrefixed([0x09, 0x10], Self.sps, Self.pps, Self.idrSlice))

        // An IDR with its own PPS gets only the SPS.
        let ownPPS: [UInt8] = [0x68, 0xCE, 0x38, 0x80]
        let withPPS = try H264AccessUnit(annexB: H264Fixtures.annexB(ownPPS, Self.idrSlice))
        #expect(withPPS.sample(insertingParameterSetsFrom: record) == H264Fixtures.lengthPrefixed(Self.sps, ownPPS, Self.idrSlice))
    }

    @Test func otherFramesAreLeftAsTheyAre() throws {
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSet: Self.sps, pictureParameterSets: [Self.pps])
        let unit = try H264AccessUnit(annexB: [0x00, 0x00, 0x01] + Self.slice + [0x00, 0x00, 0x01, 0x06, 0x05, 0x80])
        #expect(!unit.isIDR)
        #expect(unit.sample(insertingParameterSetsFrom: record) == H264Fixtures.lengthPrefixed(Self.slice, [0x06, 0x05, 0x80]))
    }

    @Test func badAccessUnitsAreRefused() {
        #expect(throws: H264Error.noNALUnits) { try H264AccessUnit(annexB: []) }
        #expect(throws: H264Error.noNALUnits) { try H264AccessUnit(annexB: [0x41, 0x9A]) }
        #expect(throws: H264Error.noNALUnits) { try H264AccessUnit(annexB: [0x00, 0x00, 0x01, 0x00, 0x00]) }
        #expect(throws: H264Error.forbiddenBitSet(header: 0xC1)) { try H264AccessUnit(annexB: H264Fixtures.annexB(Self.slice, [0xC1, 0x01])) }
        let huge = AnnexBScanner.startCode + [UInt8](repeating: 0x41, count: H264AccessUnit.maxBytes)
        #expect(throws: H264Error.accessUnitTooLarge(bytes: huge.count)) { try H264AccessUnit(annexB: huge) }
    }

    /// A keyframe whose SPS cannot be read has no record, and says why.
    @Test func unreadableSPSFailsTheRecord() throws {
        let unit = try H264AccessUnit(annexB: H264Fixtures.annexB([0x67, 0x42], Self.pps, Self.idrSlice))
        #expect(throws: H264Error.truncated(offset: 8, needed: 8, available: 8)) { try unit.configurationRecord() }
    }
}
