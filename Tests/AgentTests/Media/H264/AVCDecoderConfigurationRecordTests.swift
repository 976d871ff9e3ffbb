import Testing

@testable import AgentMedia

@Suite struct AVCDecoderConfigurationRecordTests {
    /// The record is byte for byte what ffmpeg writes into an MP4's avcC for the same stream:
    /// without the chroma/bit depth fields for Baseline, with them for High (100), High 10 (110,
    /// bit depths 2), High 4:2:2 (122, chroma_format 2) and monochrome High (chroma_format 0).
    @Test(arguments: H264Fixtures.ffmpegAvcCs)
    func matchesFFmpegsAvcC(sps: [UInt8], pps: [UInt8], avcC: [UInt8]) throws {
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSet: sps, pictureParameterSets: [pps])
        #expect(record.bytes == avcC)
    }

    @Test func fieldByField() throws {
        let sps = H264Fixtures.high10SPS
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSet: sps,
                                                       pictureParameterSets: [H264Fixtures.high10PPS, [0x68, 0xCE, 0x38, 0x80]])
        let expected: [UInt8] = [
            0x01,  // configurationVersion
            0x6E, 0x00, 0x0D,  // profile 110 (High 10), no constraint flags, level 1.3
            0xFF,  // reserved 111111, lengthSizeMinusOne 3
            0xE1,  // reserved 111, one SPS
            0x00, UInt8(sps.count),
        ] + sps + [
            0x02,  // two PPSs
            0x00, 0x06, 0x68, 0xEB, 0xE3, 0xCB, 0x22, 0xC0,
            0x00, 0x04, 0x68, 0xCE, 0x38, 0x80,
            0xFD,  // reserved 111111, chroma_format 1 (4:2:0)
            0xFA,  // reserved 11111, bit_depth_luma_minus8 2
            0xFA,  // reserved 11111, bit_depth_chroma_minus8 2
            0x00,  // numOfSequenceParameterSetExt
        ]
        #expect(record.bytes == expected)
    }

    /// High 4:4:4 Predictive (244) is not one of the profiles §5.3.3.1.2 gives the extra fields
    /// (ffmpeg writes them anyway; a reader stops after the PPSs).
    @Test func high444HasNoExtension() throws {
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSet: H264Fixtures.high444SPS,
                                                       pictureParameterSets: [H264Fixtures.high444PPS])
        let bytes = record.bytes
        #expect(bytes.count == 6 + 2 + H264Fixtures.high444SPS.count + 1 + 2 + H264Fixtures.high444PPS.count)
        #expect(Array(bytes.suffix(H264Fixtures.high444PPS.count)) == H264Fixtures.high444PPS)
    }

    @Test func badParameterSetsAreRefused() {
        let sps = H264Fixtures.baseline320x240SPS
        let pps = H264Fixtures.baseline320x240PPS
        #expect(throws: H264Error.pictureParameterSetCount(0)) {
            try AVCDecoderConfigurationRecord(sequenceParameterSet: sps, pictureParameterSets: [])
        }
        #expect(throws: H264Error.pictureParameterSetCount(256)) {
            try AVCDecoderConfigurationRecord(sequenceParameterSet: sps, pictureParameterSets: Array(repeating: pps, count: 256))
        }
        #expect(throws: H264Error.unexpectedNALUnitType(expected: 8, got: 7)) {
            try AVCDecoderConfigurationRecord(sequenceParameterSet: sps, pictureParameterSets: [sps])
        }
        #expect(throws: H264Error.unexpectedNALUnitType(expected: 7, got: 8)) {
            try AVCDecoderConfigurationRecord(sequenceParameterSet: pps, pictureParameterSets: [pps])
        }
        #expect(throws: H264Error.truncated(offset: 0, needed: 8, available: 0)) {
            try AVCDecoderConfigurationRecord(sequenceParameterSet: sps, pictureParameterSets: [[]])
        }
        let longPPS = [0x68] + [UInt8](repeating: 0xAA, count: 65_535)
        #expect(throws: H264Error.parameterSetTooLarge(bytes: 65_536)) {
            try AVCDecoderConfigurationRecord(sequenceParameterSet: sps, pictureParameterSets: [longPPS])
        }
    }
}
