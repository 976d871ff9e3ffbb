import Testing

@testable import AgentCore
@testable import AgentMedia

/// ``AVCDecoderConfigurationRecord/init(parsing:)``: a Matroska CodecPrivate or MP4 avcC as
/// files hold it, read back into its parameter sets and NAL unit length size.
@Suite struct AVCDecoderConfigurationRecordParsingTests {
    static let sps = H264Fixtures.baseline320x240SPS
    static let pps = H264Fixtures.baseline320x240PPS

    /// What ffmpeg wrote reads back into the sets it was made of, and writes the same bytes.
    @Test(arguments: H264Fixtures.ffmpegAvcCs)
    func readsFFmpegsAvcC(sps: [UInt8], pps: [UInt8], avcC: [UInt8]) throws {
        let record = try AVCDecoderConfigurationRecord(parsing: avcC)
        #expect(record.sequenceParameterSets == [sps] && record.pictureParameterSets == [pps])
        #expect(record.nalUnitLengthSize == 4)
        #expect(record.bytes == avcC)
    }

    @Test func fieldByField() throws {
        let ownPPS: [UInt8] = [0x68, 0xCE, 0x38, 0x80]
        let bytes: [UInt8] = [
            0x01,  // configurationVersion
            0x42, 0xC0, 0x0D,  // profile 66, constraint_set0/1, level 1.3
            0xFD,  // reserved 111111, lengthSizeMinusOne 1: 2-byte lengths
            0xE2,  // reserved 111, two SPSs
            0x00, UInt8(Self.sps.count),
        ] + Self.sps + [
            0x00, UInt8(H264Fixtures.baseline638x358SPS.count),
        ] + H264Fixtures.baseline638x358SPS + [
            0x02,  // two PPSs
            0x00, 0x05, 0x68, 0xCB, 0x83, 0xCB, 0x20,
            0x00, 0x04, 0x68, 0xCE, 0x38, 0x80,
        ]
        let record = try AVCDecoderConfigurationRecord(parsing: bytes)
        #expect(record.nalUnitLengthSize == 2)
        #expect(record.sequenceParameterSets == [Self.sps, H264Fixtures.baseline638x358SPS])
        #expect(record.sequenceParameterSet == Self.sps)
        #expect(record.pictureParameterSets == [Self.pps, ownPPS])
        #expect(record.parsedSequenceParameterSet.width == 320, "the first SPS is the record's")
        #expect(record.bytes == bytes)
    }

    /// Reserved bits written as zeros, and a High profile record without its chroma and bit depth
    /// fields (older ffmpeg), read the same; the fields after the PPSs are not needed.
    @Test func lenientWhereWritersDiffer() throws {
        let zeroedReserved = H264Fixtures.baseline320x240AvcC.enumerated().map { index, byte in
            index == 4 ? byte & 0x03 : index == 5 ? byte & 0x1F : byte
        }
        #expect(try AVCDecoderConfigurationRecord(parsing: zeroedReserved).bytes == H264Fixtures.baseline320x240AvcC)
        let withoutExtension = Array(H264Fixtures.high638x358AvcC.dropLast(4))
        let record = try AVCDecoderConfigurationRecord(parsing: withoutExtension)
        #expect(record.pictureParameterSets == [H264Fixtures.high638x358PPS])
        #expect(record.bytes == H264Fixtures.high638x358AvcC)
    }

    @Test func badRecordsAreRefused() {
        let avcC = H264Fixtures.baseline320x240AvcC
        #expect(throws: H264Error.missingConfigurationRecord) { try AVCDecoderConfigurationRecord(parsing: []) }
        #expect(throws: H264Error.configurationVersion(0)) { try AVCDecoderConfigurationRecord(parsing: [0x00] + avcC.dropFirst()) }
        // lengthSizeMinusOne 2: 3-byte lengths are not allowed.
        var threeByteLengths = avcC
        threeByteLengths[4] = 0xFE
        #expect(throws: H264Error.nalUnitLengthSize(3)) { try AVCDecoderConfigurationRecord(parsing: threeByteLengths) }
        // numOfSequenceParameterSets 0, then one PPS.
        var noSPS = Array(avcC.prefix(6))
        noSPS[5] = 0xE0
        #expect(throws: H264Error.sequenceParameterSetCount(0)) { try AVCDecoderConfigurationRecord(parsing: noSPS + [0x01, 0x00, 0x05] + Self.pps) }
        // Cut in the fixed header, in the SPS length, in the SPS, before the PPS count, in the PPS.
        #expect(throws: H264Error.configurationRecordTruncated(ByteRangeError(offset: 0, wanted: 4, count: 3))) {
            try AVCDecoderConfigurationRecord(parsing: Array(avcC.prefix(3)))
        }
        #expect(throws: H264Error.configurationRecordTruncated(ByteRangeError(offset: 6, wanted: 2, count: 7))) {
            try AVCDecoderConfigurationRecord(parsing: Array(avcC.prefix(7)))
        }
        #expect(throws: H264Error.configurationRecordTruncated(ByteRangeError(offset: 8, wanted: 24, count: 20))) {
            try AVCDecoderConfigurationRecord(parsing: Array(avcC.prefix(20)))
        }
        #expect(throws: H264Error.configurationRecordTruncated(ByteRangeError(offset: 32, wanted: 1, count: 32))) {
            try AVCDecoderConfigurationRecord(parsing: Array(avcC.prefix(32)))
        }
        #expect(throws: H264Error.configurationRecordTruncated(ByteRangeError(offset: 35, wanted: 5, count: 38))) {
            try AVCDecoderConfigurationRecord(parsing: Array(avcC.prefix(38)))
        }
        // A PPS count of 0, and an SPS length of 0.
        #expect(throws: H264Error.pictureParameterSetCount(0)) { try AVCDecoderConfigurationRecord(parsing: Array(avcC.prefix(32)) + [0x00]) }
        #expect(throws: H264Error.truncated(offset: 0, needed: 8, available: 0)) {
            try AVCDecoderConfigurationRecord(parsing: Array(avcC.prefix(6)) + [0x00, 0x00, 0x01, 0x00, 0x05] + Self.pps)
        }
        // The sets must be what they say: a PPS where the SPS goes.
        #expect(throws: H264Error.unexpectedNALUnitType(expected: 7, got: 8)) {
            try AVCDecoderConfigurationRecord(parsing: Array(avcC.prefix(6)) + [0x00, 0x05] + Self.pps + [0x01, 0x00, 0x05] + Self.pps)
        }
    }

    /// The memberwise init checks what parsing gives it.
    @Test func theSetsAndLengthSizeAreChecked() {
        #expect(throws: H264Error.sequenceParameterSetCount(0)) {
            try AVCDecoderConfigurationRecord(sequenceParameterSets: [], pictureParameterSets: [Self.pps])
        }
        #expect(throws: H264Error.sequenceParameterSetCount(32)) {
            try AVCDecoderConfigurationRecord(sequenceParameterSets: Array(repeating: Self.sps, count: 32), pictureParameterSets: [Self.pps])
        }
        #expect(throws: H264Error.nalUnitLengthSize(0)) {
            try AVCDecoderConfigurationRecord(sequenceParameterSets: [Self.sps], pictureParameterSets: [Self.pps], nalUnitLengthSize: 0)
        }
    }
}
