import Testing

@testable import AgentCore
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

/// The other way: a stored sample (length-prefixed NAL units, ISO/IEC 14496-15 §5.3.2) into
/// Annex B, as a player sends it.
@Suite struct H264AccessUnitFromSampleTests {
    static let sps = H264Fixtures.baseline320x240SPS
    static let pps = H264Fixtures.baseline320x240PPS
    static let idrSlice = H264AccessUnitTests.idrSlice
    static let slice = H264AccessUnitTests.slice

    @Test func lengthsBecomeStartCodes() throws {
        let unit = try H264AccessUnit(sample: H264Fixtures.lengthPrefixed(Self.sps, Self.pps, Self.idrSlice), lengthSize: 4)
        #expect(unit.annexB == H264Fixtures.annexB(Self.sps, Self.pps, Self.idrSlice))
        #expect(unit.nalUnits.map(Array.init) == [Self.sps, Self.pps, Self.idrSlice])
        #expect(unit.nalUnitRanges == AnnexBScanner.nalUnits(in: unit.annexB), "the ranges are the scanner's")
        #expect(unit.isIDR)
        // And back: the sample it came from.
        #expect(unit.sample() == H264Fixtures.lengthPrefixed(Self.sps, Self.pps, Self.idrSlice))
    }

    /// 1- and 2-byte lengths (lengthSizeMinusOne 0 and 1) read the same NAL units.
    @Test func shortLengths() throws {
        let oneByte: [UInt8] = [0x04] + Self.slice + [0x03, 0x06, 0x05, 0x80]  // len 4 | slice | len 3 | SEI
        let twoBytes: [UInt8] = [0x00, 0x04] + Self.slice + [0x00, 0x03, 0x06, 0x05, 0x80]
        let expected = H264Fixtures.annexB(Self.slice, [0x06, 0x05, 0x80])
        #expect(try H264AccessUnit(sample: oneByte, lengthSize: 1).annexB == expected)
        #expect(try H264AccessUnit(sample: twoBytes, lengthSize: 2).annexB == expected)
        #expect(try !H264AccessUnit(sample: oneByte, lengthSize: 1).isIDR)
    }

    @Test func malformedSamplesAreRefused() {
        let sample = H264Fixtures.lengthPrefixed(Self.slice)  // 00 00 00 04 | 41 9A 22 4C
        #expect(throws: H264Error.noNALUnits) { try H264AccessUnit(sample: [], lengthSize: 4) }
        #expect(throws: H264Error.nalUnitLengthSize(3)) { try H264AccessUnit(sample: sample, lengthSize: 3) }
        #expect(throws: H264Error.nalUnitLengthSize(0)) { try H264AccessUnit(sample: sample, lengthSize: 0) }
        // The NAL unit runs one byte past the block.
        #expect(throws: H264Error.nalUnitPastSampleEnd(ByteRangeError(offset: 4, wanted: 4, count: 7))) {
            try H264AccessUnit(sample: Array(sample.dropLast()), lengthSize: 4)
        }
        // The second length field is cut: two of its four bytes.
        #expect(throws: H264Error.nalUnitPastSampleEnd(ByteRangeError(offset: 8, wanted: 4, count: 10))) {
            try H264AccessUnit(sample: sample + [0x00, 0x00], lengthSize: 4)
        }
        // A length that is no length: 4 GiB − 1 in an 8-byte block.
        #expect(throws: H264Error.nalUnitPastSampleEnd(ByteRangeError(offset: 4, wanted: 0xFFFF_FFFF, count: 8))) {
            try H264AccessUnit(sample: [0xFF, 0xFF, 0xFF, 0xFF] + Self.slice, lengthSize: 4)
        }
        // A zero length, after a good NAL unit.
        #expect(throws: H264Error.emptyNALUnit(offset: 8)) { try H264AccessUnit(sample: sample + [0, 0, 0, 0] + sample, lengthSize: 4) }
        // Start code emulation and a trailing zero: Annex B could not frame them.
        #expect(throws: H264Error.nalUnitNotEscaped(offset: 0)) { try H264AccessUnit(sample: [0x05, 0x41, 0x9A, 0x00, 0x00, 0x01], lengthSize: 1) }
        #expect(throws: H264Error.nalUnitNotEscaped(offset: 3)) {
            try H264AccessUnit(sample: [0x02, 0x41, 0x9A] + [0x04, 0x41, 0x00, 0x00, 0x02], lengthSize: 1)
        }
        #expect(throws: H264Error.nalUnitNotEscaped(offset: 0)) { try H264AccessUnit(sample: [0x03, 0x41, 0x9A, 0x00], lengthSize: 1) }
        #expect(throws: H264Error.nalUnitNotEscaped(offset: 0)) { try H264AccessUnit(sample: [0x05, 0x41, 0x00, 0x00, 0x00, 0x7F], lengthSize: 1) }
        #expect(throws: H264Error.forbiddenBitSet(header: 0xC1)) { try H264AccessUnit(sample: [0x02, 0xC1, 0x01], lengthSize: 1) }
        // Too large, as a sample and once 1-byte lengths became 4-byte start codes.
        let huge = [UInt8](repeating: 0x41, count: H264AccessUnit.maxBytes + 1)
        #expect(throws: H264Error.accessUnitTooLarge(bytes: huge.count)) { try H264AccessUnit(sample: huge, lengthSize: 4) }
        // `01 41` over and over: each 2 bytes become 5, and the 5 that pass the limit are refused.
        let growing: [UInt8] = (0..<H264AccessUnit.maxBytes).map { $0 % 2 == 0 ? 0x01 : 0x41 }
        #expect(throws: H264Error.accessUnitTooLarge(bytes: (H264AccessUnit.maxBytes / 5 + 1) * 5)) {
            try H264AccessUnit(sample: growing, lengthSize: 1)
        }
    }

    /// An IDR without parameter sets gets the record's in front, in Annex B as in a sample; other
    /// access units, and IDRs with their own sets, stay as they are.
    @Test func bareIDRsGetTheRecordsSets() throws {
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSet: Self.sps, pictureParameterSets: [Self.pps])
        let bare = try H264AccessUnit(sample: H264Fixtures.lengthPrefixed(Self.idrSlice), lengthSize: 4)
        let completed = try bare.insertingParameterSets(from: record)
        #expect(completed.annexB == H264Fixtures.annexB(Self.sps, Self.pps, Self.idrSlice))
        #expect(completed.nalUnitRanges == AnnexBScanner.nalUnits(in: completed.annexB))
        #expect(try bare.insertingParameterSets(from: nil).annexB == bare.annexB)

        let delimited = try H264AccessUnit(sample: H264Fixtures.lengthPrefixed([0x09, 0x10], Self.idrSlice), lengthSize: 4)
        #expect(try delimited.insertingParameterSets(from: record).annexB == H264Fixtures.annexB([0x09, 0x10], Self.sps, Self.pps, Self.idrSlice))

        let own = try H264AccessUnit(sample: H264Fixtures.lengthPrefixed(Self.sps, Self.pps, Self.idrSlice), lengthSize: 4)
        #expect(try own.insertingParameterSets(from: record).annexB == own.annexB)
        let inter = try H264AccessUnit(sample: H264Fixtures.lengthPrefixed(Self.slice), lengthSize: 4)
        #expect(try inter.insertingParameterSets(from: record).annexB == H264Fixtures.annexB(Self.slice))
    }
}

