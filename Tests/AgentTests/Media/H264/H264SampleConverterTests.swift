import Testing

@testable import AgentMedia

@Suite struct H264SampleConverterTests {
    static let sps = H264Fixtures.baseline320x240SPS
    static let pps = H264Fixtures.baseline320x240PPS
    static let newSPS = H264Fixtures.baseline638x358SPS
    static let newPPS: [UInt8] = [0x68, 0xCE, 0x38, 0x80]
    static let idr: [UInt8] = [0x65, 0x88, 0x84, 0x21]
    static let slice: [UInt8] = [0x41, 0x9A, 0x22, 0x4C]

    @Test func setsSentOnceGoBeforeEveryIDR() throws {
        var converter = H264SampleConverter()
        let first = try converter.convert(H264Fixtures.annexB(Self.sps, Self.pps, Self.idr))
        #expect(first == .init(bytes: H264Fixtures.lengthPrefixed(Self.sps, Self.pps, Self.idr), isIDR: true, parameterSetsChanged: false))
        #expect(converter.parameterSets?.sequenceParameterSet == Self.sps)
        let inter = try converter.convert(H264Fixtures.annexB(Self.slice))
        #expect(inter == .init(bytes: H264Fixtures.lengthPrefixed(Self.slice), isIDR: false, parameterSetsChanged: false))
        let bare = try converter.convert(H264Fixtures.annexB(Self.idr))
        #expect(bare == .init(bytes: H264Fixtures.lengthPrefixed(Self.sps, Self.pps, Self.idr), isIDR: true, parameterSetsChanged: false))
        // The same sets again are no change.
        let repeated = try converter.convert(H264Fixtures.annexB(Self.sps, Self.pps, Self.idr))
        #expect(!repeated.parameterSetsChanged)
    }

    /// New sets are reported once, and later bare IDRs get the new ones, not the first.
    @Test func newSetsReplaceTheOldOnes() throws {
        var converter = H264SampleConverter()
        _ = try converter.convert(H264Fixtures.annexB(Self.sps, Self.pps, Self.idr))
        let resized = try converter.convert(H264Fixtures.annexB(Self.newSPS, Self.newPPS, Self.idr))
        #expect(resized.parameterSetsChanged)
        #expect(converter.parameterSets?.parsedSequenceParameterSet.width == 638)
        let bare = try converter.convert(H264Fixtures.annexB(Self.idr))
        #expect(bare.bytes == H264Fixtures.lengthPrefixed(Self.newSPS, Self.newPPS, Self.idr))
        #expect(!bare.parameterSetsChanged)
        // A PPS alone keeps the SPS.
        let ppsOnly = try converter.convert(H264Fixtures.annexB(Self.pps, Self.slice))
        #expect(ppsOnly.parameterSetsChanged)
        #expect(converter.parameterSets?.sequenceParameterSet == Self.newSPS)
        #expect(converter.parameterSets?.pictureParameterSets == [Self.pps])
    }

    /// A PPS before any SPS waits for it; until both came, IDRs get nothing added.
    @Test func halfASetWaitsForTheOtherHalf() throws {
        var converter = H264SampleConverter()
        _ = try converter.convert(H264Fixtures.annexB(Self.pps))
        #expect(converter.parameterSets == nil)
        #expect(try converter.convert(H264Fixtures.annexB(Self.idr)).bytes == H264Fixtures.lengthPrefixed(Self.idr))
        let completed = try converter.convert(H264Fixtures.annexB(Self.sps, Self.idr))
        #expect(!completed.parameterSetsChanged)
        #expect(converter.parameterSets?.pictureParameterSets == [Self.pps])
    }

    /// An unreadable SPS fails its access unit; the sets before it stay.
    @Test func unreadableSetsKeepTheLastGoodOnes() throws {
        var converter = H264SampleConverter()
        _ = try converter.convert(H264Fixtures.annexB(Self.sps, Self.pps, Self.idr))
        #expect(throws: H264Error.truncated(offset: 8, needed: 8, available: 8)) {
            try converter.convert(H264Fixtures.annexB([0x67, 0x42], Self.pps, Self.idr))
        }
        #expect(throws: H264Error.noNALUnits) { try converter.convert([0x01, 0x02]) }
        #expect(converter.parameterSets?.sequenceParameterSet == Self.sps)
        #expect(try converter.convert(H264Fixtures.annexB(Self.idr)).bytes == H264Fixtures.lengthPrefixed(Self.sps, Self.pps, Self.idr))
    }

    // MARK: stored samples to Annex B

    /// A track whose sets are only in its record (ffmpeg's global header): every IDR gets them,
    /// other frames stay as they are, with the record's 2-byte lengths.
    @Test func aTracksRecordGoesBeforeEveryIDR() throws {
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSets: [Self.sps], pictureParameterSets: [Self.pps],
                                                       nalUnitLengthSize: 2)
        var converter = H264SampleConverter(configurationRecord: record)
        #expect(converter.sampleLengthSize == 2)
        let idr: [UInt8] = [0x00, 0x04] + Self.idr
        let slice: [UInt8] = [0x00, 0x04] + Self.slice
        for sample in [idr, slice, slice, idr, slice] {
            let unit = try converter.accessUnit(fromSample: sample)
            let expected = sample == idr ? H264Fixtures.annexB(Self.sps, Self.pps, Self.idr) : H264Fixtures.annexB(Self.slice)
            #expect(unit.annexB == expected)
            #expect(unit.isIDR == (sample == idr))
        }
        #expect(converter.parameterSets == record)
    }

    /// Sets that come in band replace the record's for the IDRs after them.
    @Test func inBandSetsReplaceTheRecords() throws {
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSet: Self.sps, pictureParameterSets: [Self.pps])
        var converter = H264SampleConverter(configurationRecord: record)
        let resized = try converter.accessUnit(fromSample: H264Fixtures.lengthPrefixed(Self.newSPS, Self.newPPS, Self.idr))
        #expect(resized.annexB == H264Fixtures.annexB(Self.newSPS, Self.newPPS, Self.idr))
        let bare = try converter.accessUnit(fromSample: H264Fixtures.lengthPrefixed(Self.idr))
        #expect(bare.annexB == H264Fixtures.annexB(Self.newSPS, Self.newPPS, Self.idr))
        #expect(converter.parameterSets?.nalUnitLengthSize == 4)
    }

    /// A bad sample fails alone: the sets stay and the next sample converts.
    @Test func aBadSampleFailsAlone() throws {
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSet: Self.sps, pictureParameterSets: [Self.pps])
        var converter = H264SampleConverter(configurationRecord: record)
        #expect(throws: H264Error.emptyNALUnit(offset: 0)) { try converter.accessUnit(fromSample: [0, 0, 0, 0]) }
        #expect(throws: H264Error.truncated(offset: 8, needed: 8, available: 8)) {
            try converter.accessUnit(fromSample: H264Fixtures.lengthPrefixed([0x67, 0x42], Self.idr))
        }
        #expect(try converter.accessUnit(fromSample: H264Fixtures.lengthPrefixed(Self.idr)).annexB == H264Fixtures.annexB(Self.sps, Self.pps, Self.idr))
    }
}
