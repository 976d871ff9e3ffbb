import Testing

@testable import AgentMedia

@Suite struct H264SequenceParameterSetTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var name: String
        var sps: [UInt8]
        var width: Int
        var height: Int
        var profile: UInt8
        var level: UInt8
        var chromaFormat: UInt32 = 1
        var bitDepth: UInt32 = 8
        var pocType: UInt32 = 0
        var frameMbsOnly = true
        var testDescription: String { name }
    }

    static let vectors: [Expected] = [
        // Constrained Baseline (constraint_set0 and set1): pic_order_cnt_type 2, no cropping.
        .init(name: "baseline 320x240", sps: H264Fixtures.baseline320x240SPS, width: 320, height: 240, profile: 66, level: 13, pocType: 2),
        // 40×23 macroblocks (640×368) cropped by 1 and 5 units of 2 samples.
        .init(name: "baseline 638x358", sps: H264Fixtures.baseline638x358SPS, width: 638, height: 358, profile: 66, level: 30, pocType: 2),
        .init(name: "main 1280x720", sps: H264Fixtures.main1280x720SPS, width: 1280, height: 720, profile: 77, level: 31),
        .init(name: "high 638x358", sps: H264Fixtures.high638x358SPS, width: 638, height: 358, profile: 100, level: 30),
        .init(name: "high 10", sps: H264Fixtures.high10SPS, width: 320, height: 240, profile: 110, level: 13, bitDepth: 10),
        // 4:2:2: crop units of 2 across, 1 down.
        .init(name: "high 4:2:2", sps: H264Fixtures.high422SPS, width: 638, height: 358, profile: 122, level: 30, chromaFormat: 2),
        .init(name: "high 4:4:4", sps: H264Fixtures.high444SPS, width: 320, height: 240, profile: 244, level: 13, chromaFormat: 3),
        // Fields: 12 map units are 24 macroblock rows, and a crop unit down is 2 rows (4:4:4).
        .init(name: "high 4:4:4 interlaced", sps: H264Fixtures.high444InterlacedSPS, width: 638, height: 358, profile: 244, level: 30,
              chromaFormat: 3, frameMbsOnly: false),
        // Fields in 4:2:0: a crop unit down is 4 rows.
        .init(name: "high interlaced", sps: H264Fixtures.highInterlacedSPS, width: 640, height: 360, profile: 100, level: 30,
              frameMbsOnly: false),
        // chroma_format_idc 0: crop units of 1 sample.
        .init(name: "monochrome", sps: H264Fixtures.monochromeSPS, width: 638, height: 358, profile: 100, level: 30, chromaFormat: 0),
        .init(name: "scaling lists 4:2:0", sps: H264Fixtures.scalingLists420SPS, width: 638, height: 358, profile: 100, level: 30),
        .init(name: "scaling lists 4:4:4", sps: H264Fixtures.scalingLists444InterlacedSPS, width: 638, height: 358, profile: 244, level: 30,
              chromaFormat: 3, frameMbsOnly: false),
        .init(name: "pic_order_cnt_type 1", sps: H264Fixtures.pictureOrderCountType1SPS, width: 638, height: 358, profile: 66, level: 30,
              pocType: 1),
        .init(name: "emulation prevention", sps: H264Fixtures.emulationPreventionSPS, width: 4, height: 32, profile: 66, level: 30,
              pocType: 2),
    ]

    @Test(arguments: vectors)
    func readsTheDisplaySize(_ expected: Expected) throws {
        let sps = try H264SequenceParameterSet(nalUnit: expected.sps)
        #expect(sps.width == expected.width)
        #expect(sps.height == expected.height)
        #expect(sps.profileIDC == expected.profile)
        #expect(sps.levelIDC == expected.level)
        #expect(sps.chromaFormatIDC == expected.chromaFormat)
        #expect(sps.bitDepthLuma == expected.bitDepth && sps.bitDepthChroma == expected.bitDepth)
        #expect(sps.picOrderCountType == expected.pocType)
        #expect(sps.frameMbsOnly == expected.frameMbsOnly)
        #expect(sps.id == 0)
    }

    @Test func readsTheFieldsOfABaselineSPS() throws {
        let sps = try H264SequenceParameterSet(nalUnit: H264Fixtures.baseline638x358SPS)
        #expect(sps.constraintFlags == 0xC0)  // constraint_set0 and set1: Constrained Baseline
        #expect(sps.log2MaxFrameNum == 4)
        #expect(sps.maxNumRefFrames == 3)
        #expect(sps.picWidthInMbs == 40 && sps.picHeightInMapUnits == 23)
        #expect([sps.cropLeft, sps.cropRight, sps.cropTop, sps.cropBottom] == [0, 1, 0, 5])
        #expect(!sps.separateColourPlane)
    }

    /// Every cut of a real SPS before its last field read is truncated, and says so.
    @Test func truncatedSPSIsRefused() {
        let sps = H264Fixtures.scalingLists420SPS
        // Without VUI the RBSP ends after vui_parameters_present_flag and the stop bit: cutting
        // the last byte may leave the fields whole, any cut before that may not.
        for length in 0..<(sps.count - 1) {
            #expect(throws: H264Error.self, "\(length) bytes") { try H264SequenceParameterSet(nalUnit: sps.prefix(length)) }
        }
        #expect(throws: H264Error.truncated(offset: 0, needed: 8, available: 0)) { try H264SequenceParameterSet(nalUnit: [0x67]) }
        #expect(throws: H264Error.truncated(offset: 16, needed: 8, available: 16)) {
            try H264SequenceParameterSet(nalUnit: [0x67, 0x42, 0xC0])
        }
    }

    @Test(arguments: [
        // header: forbidden_zero_bit set
        ([0xE7, 0x42, 0xC0, 0x1E, 0xD9], H264Error.forbiddenBitSet(header: 0xE7)),
        // header: a PPS
        ([0x68, 0xCB, 0x83, 0xCB, 0x20], .unexpectedNALUnitType(expected: 7, got: 8)),
        // profile 66, seq_parameter_set_id ue(32): 00000 100001 → 32 > 31
        ([0x67, 0x42, 0xC0, 0x1E, 0x04, 0x20], .invalidValue(field: "seq_parameter_set_id", value: 32)),
        // profile 100, id 0, chroma_format_idc ue(4): 1 00101 → 4 > 3
        ([0x67, 0x64, 0x00, 0x1E, 0x94], .invalidValue(field: "chroma_format_idc", value: 4)),
        // profile 100, id 0, chroma 1 (010), bit_depth_luma_minus8 ue(7) (0001000) → 7 > 6
        ([0x67, 0x64, 0x00, 0x1E, 0xA1, 0x00], .invalidValue(field: "bit_depth_luma_minus8", value: 7)),
        // profile 66, id 0, log2_max_frame_num_minus4 ue(13): 1 0001110 → 13 > 12
        ([0x67, 0x42, 0xC0, 0x1E, 0x8E], .invalidValue(field: "log2_max_frame_num_minus4", value: 13)),
        // profile 66, id 0, log2 0, pic_order_cnt_type ue(3): 1 1 00100 → 3 > 2
        ([0x67, 0x42, 0xC0, 0x1E, 0xC8], .invalidValue(field: "pic_order_cnt_type", value: 3)),
        // profile 66, id 0, ue(v) with 32 leading zeros where log2_max_frame_num_minus4 goes
        ([0x67, 0x42, 0xC0, 0x1E, 0x80, 0x00, 0x00, 0x00, 0x00, 0x80], .expGolombTooLong(leadingZeros: 32)),
    ] as [([UInt8], H264Error)])
    func invalidFieldsAreRefused(sps: [UInt8], error: H264Error) {
        #expect(throws: error) { try H264SequenceParameterSet(nalUnit: sps) }
    }

    /// A crop of 8 units of 2 samples from a picture one macroblock (16 samples) wide leaves
    /// nothing: §7.4.2.1.1 wants a sample left.
    @Test func cropLargerThanThePictureIsRefused() {
        // baseline: id 0 (1), log2 0 (1), poc 2 (011), refs 0 (1), gaps 0, width_minus1 0 (1),
        // height_minus1 0 (1), frame_mbs_only 1, direct_8x8 1, cropping 1, left 8 (0001001),
        // right 0 (1), top 0 (1), bottom 0 (1), vui 0, stop bit.
        // 1101 1101 | 1111 0001 | 0011 1101
        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xDD, 0xF1, 0x3D]
        #expect(throws: H264Error.invalidValue(field: "frame_crop_left_offset + frame_crop_right_offset", value: 8)) {
            try H264SequenceParameterSet(nalUnit: sps)
        }
    }

    /// A width past 16384 samples (1024 macroblocks) is a corrupt SPS.
    @Test func hugePictureIsRefused() {
        // baseline: id 0 (1), log2 0 (1), poc 2 (011), refs 0 (1), gaps 0,
        // pic_width_in_mbs_minus1 ue(1024) (0000000000 10000000001), height_minus1 0 (1),
        // frame_mbs_only 1, direct_8x8 1, cropping 0, vui 0, stop bit:
        // 1101 1100 | 0000 0000 | 0100 0000 | 0001 1110 | 0100 0000
        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xDC, 0x00, 0x40, 0x1E, 0x40]
        #expect(throws: H264Error.invalidValue(field: "pic_width_in_mbs_minus1", value: 1024)) {
            try H264SequenceParameterSet(nalUnit: sps)
        }
    }
}
