/// An H.264 sequence parameter set (ITU-T H.264 §7.3.2.1.1, semantics §7.4.2.1.1), read up to
/// the frame cropping: what a container needs to describe the video (profile, level, chroma
/// format and bit depth for the AVCDecoderConfigurationRecord, and the display size).
///
///     nal_unit_header (type 7)
///     profile_idc u(8) | constraint_set0..5_flag u(1)×6 | reserved_zero_2bits u(2) | level_idc u(8)
///     seq_parameter_set_id ue(v)
///     if profile_idc ∈ {100 110 122 244 44 83 86 118 128 138 139 134 135}:
///         chroma_format_idc ue(v) | [separate_colour_plane_flag u(1) if 3]
///         bit_depth_luma_minus8 ue(v) | bit_depth_chroma_minus8 ue(v)
///         qpprime_y_zero_transform_bypass_flag u(1) | seq_scaling_matrix_present_flag u(1)
///         [seq_scaling_list_present_flag u(1) + scaling_list() × (chroma_format_idc ≠ 3 ? 8 : 12)]
///     log2_max_frame_num_minus4 ue(v) | pic_order_cnt_type ue(v)
///         0: log2_max_pic_order_cnt_lsb_minus4 ue(v)
///         1: delta_pic_order_always_zero_flag u(1) | offset_for_non_ref_pic se(v)
///            offset_for_top_to_bottom_field se(v) | num_ref_frames_in_pic_order_cnt_cycle ue(v)
///            offset_for_ref_frame se(v) × that many
///     max_num_ref_frames ue(v) | gaps_in_frame_num_value_allowed_flag u(1)
///     pic_width_in_mbs_minus1 ue(v) | pic_height_in_map_units_minus1 ue(v)
///     frame_mbs_only_flag u(1) | [mb_adaptive_frame_field_flag u(1) if 0] | direct_8x8_inference_flag u(1)
///     frame_cropping_flag u(1) | [frame_crop_left/right/top/bottom_offset ue(v) if 1]
///     vui_parameters_present_flag u(1) | vui_parameters() …   (not read)
///
/// Values outside the ranges §7.4.2.1.1 gives are refused, and so is a picture wider or taller
/// than ``maxDimension``, so every size read here is a sane one.
public struct H264SequenceParameterSet: Equatable, Sendable {
    public var profileIDC: UInt8
    /// constraint_set0_flag in the high bit down to constraint_set5_flag, then the two reserved
    /// bits: the byte AVCDecoderConfigurationRecord calls profile_compatibility.
    public var constraintFlags: UInt8
    public var levelIDC: UInt8
    public var id: UInt32
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4 (Table 6-1); 1 when the profile does not say.
    public var chromaFormatIDC: UInt32
    public var separateColourPlane: Bool
    public var bitDepthLuma: UInt32
    public var bitDepthChroma: UInt32
    public var log2MaxFrameNum: UInt32
    public var picOrderCountType: UInt32
    public var maxNumRefFrames: UInt32
    public var picWidthInMbs: UInt32
    public var picHeightInMapUnits: UInt32
    public var frameMbsOnly: Bool
    /// frame_crop_{left,right,top,bottom}_offset, in crop units (all 0 without cropping).
    public var cropLeft: UInt32 = 0
    public var cropRight: UInt32 = 0
    public var cropTop: UInt32 = 0
    public var cropBottom: UInt32 = 0

    /// The widest and tallest picture accepted, in luma samples (Level 6.2 allows 8192×4320;
    /// anything past this is a corrupt SPS, not a camera).
    public static let maxDimension: UInt32 = 16_384

    /// The profiles whose SPS carries chroma format, bit depths and scaling lists (§7.3.2.1.1).
    static let profilesWithChromaInfo: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// Reads the SPS NAL unit `nalUnit` (header byte included, emulation prevention bytes not
    /// yet removed), as it comes in an access unit.
    public init(nalUnit: some Collection<UInt8>) throws(H264Error) {
        guard let header = nalUnit.first else { throw .truncated(offset: 0, needed: 8, available: 0) }
        guard header & 0x80 == 0 else { throw .forbiddenBitSet(header: header) }
        guard H264NALUnitType(header: header) == .sequenceParameterSet else {
            throw .unexpectedNALUnitType(expected: H264NALUnitType.sequenceParameterSet.rawValue, got: H264NALUnitType.bits(of: header))
        }
        var reader = H264BitReader(nalUnitPayload: nalUnit.dropFirst())
        try self.init(reading: &reader)
    }

    private init(reading reader: inout H264BitReader) throws(H264Error) {
        profileIDC = UInt8(truncatingIfNeeded: try reader.bits(8))
        constraintFlags = UInt8(truncatingIfNeeded: try reader.bits(8))
        levelIDC = UInt8(truncatingIfNeeded: try reader.bits(8))
        id = try reader.unsignedExpGolomb("seq_parameter_set_id", in: 0...31)
        chromaFormatIDC = 1
        separateColourPlane = false
        bitDepthLuma = 8
        bitDepthChroma = 8
        if Self.profilesWithChromaInfo.contains(profileIDC) {
            chromaFormatIDC = try reader.unsignedExpGolomb("chroma_format_idc", in: 0...3)
            if chromaFormatIDC == 3 { separateColourPlane = try reader.flag() }
            bitDepthLuma = 8 + (try reader.unsignedExpGolomb("bit_depth_luma_minus8", in: 0...6))
            bitDepthChroma = 8 + (try reader.unsignedExpGolomb("bit_depth_chroma_minus8", in: 0...6))
            try reader.skip(1)  // qpprime_y_zero_transform_bypass_flag
            if try reader.flag() {  // seq_scaling_matrix_present_flag
                for list in 0..<(chromaFormatIDC != 3 ? 8 : 12) {
                    guard try reader.flag() else { continue }  // seq_scaling_list_present_flag
                    try Self.skipScalingList(size: list < 6 ? 16 : 64, in: &reader)
                }
            }
        }
        log2MaxFrameNum = 4 + (try reader.unsignedExpGolomb("log2_max_frame_num_minus4", in: 0...12))
        picOrderCountType = try reader.unsignedExpGolomb("pic_order_cnt_type", in: 0...2)
        switch picOrderCountType {
        case 0:
            _ = try reader.unsignedExpGolomb("log2_max_pic_order_cnt_lsb_minus4", in: 0...12)
        case 1:
            try reader.skip(1)  // delta_pic_order_always_zero_flag
            let offsetRange = Int32.min + 1...Int32.max  // −2^31 + 1 … 2^31 − 1
            _ = try reader.signedExpGolomb("offset_for_non_ref_pic", in: offsetRange)
            _ = try reader.signedExpGolomb("offset_for_top_to_bottom_field", in: offsetRange)
            let cycle = try reader.unsignedExpGolomb("num_ref_frames_in_pic_order_cnt_cycle", in: 0...255)
            for _ in 0..<cycle { _ = try reader.signedExpGolomb("offset_for_ref_frame", in: offsetRange) }
        default:
            break
        }
        // MaxDpbFrames is at most 16 (Annex A.3.1 h), A.3.2 f)).
        maxNumRefFrames = try reader.unsignedExpGolomb("max_num_ref_frames", in: 0...16)
        try reader.skip(1)  // gaps_in_frame_num_value_allowed_flag
        picWidthInMbs = 1 + (try reader.unsignedExpGolomb("pic_width_in_mbs_minus1", in: 0...(Self.maxDimension / 16 - 1)))
        picHeightInMapUnits = 1 + (try reader.unsignedExpGolomb("pic_height_in_map_units_minus1", in: 0...(Self.maxDimension / 16 - 1)))
        frameMbsOnly = try reader.flag()
        if !frameMbsOnly { try reader.skip(1) }  // mb_adaptive_frame_field_flag
        try reader.skip(1)  // direct_8x8_inference_flag
        if try reader.flag() {  // frame_cropping_flag
            let limit = Self.maxDimension
            cropLeft = try reader.unsignedExpGolomb("frame_crop_left_offset", in: 0...limit)
            cropRight = try reader.unsignedExpGolomb("frame_crop_right_offset", in: 0...limit)
            cropTop = try reader.unsignedExpGolomb("frame_crop_top_offset", in: 0...limit)
            cropBottom = try reader.unsignedExpGolomb("frame_crop_bottom_offset", in: 0...limit)
        }
        guard frameHeightInMbs * 16 <= Self.maxDimension else {
            throw .invalidValue(field: "FrameHeightInMbs", value: Int64(frameHeightInMbs))
        }
        // §7.4.2.1.1: the crop must leave at least one sample.
        guard cropUnitX * (cropLeft + cropRight) < codedWidth else {
            throw .invalidValue(field: "frame_crop_left_offset + frame_crop_right_offset", value: Int64(cropLeft) + Int64(cropRight))
        }
        guard cropUnitY * (cropTop + cropBottom) < codedHeight else {
            throw .invalidValue(field: "frame_crop_top_offset + frame_crop_bottom_offset", value: Int64(cropTop) + Int64(cropBottom))
        }
    }

    /// §7.3.2.1.1.1 scaling_list(): only the delta_scale codes are in the stream, and they stop
    /// early when the next scale comes out 0 (the rest repeat the last one).
    private static func skipScalingList(size: Int, in reader: inout H264BitReader) throws(H264Error) {
        var lastScale: Int32 = 8
        var nextScale: Int32 = 8
        for _ in 0..<size {
            if nextScale != 0 {
                let delta = try reader.signedExpGolomb("delta_scale", in: -128...127)
                nextScale = (lastScale + delta + 256) % 256
            }
            lastScale = nextScale == 0 ? lastScale : nextScale
        }
    }

    /// ChromaArrayType (§7.4.2.1.1): 0 for monochrome or separately coded colour planes.
    public var chromaArrayType: UInt32 { separateColourPlane ? 0 : chromaFormatIDC }

    /// FrameHeightInMbs (7-18): a map unit is a field macroblock pair row unless frame_mbs_only.
    var frameHeightInMbs: UInt32 { (frameMbsOnly ? 1 : 2) * picHeightInMapUnits }

    var codedWidth: UInt32 { picWidthInMbs * 16 }
    var codedHeight: UInt32 { frameHeightInMbs * 16 }

    /// CropUnitX (7-19, 7-21): SubWidthC (Table 6-1), or 1 without chroma.
    var cropUnitX: UInt32 { chromaArrayType == 0 || chromaArrayType == 3 ? 1 : 2 }

    /// CropUnitY (7-20, 7-22): SubHeightC (Table 6-1) times 2 − frame_mbs_only_flag.
    var cropUnitY: UInt32 { (chromaArrayType == 1 ? 2 : 1) * (frameMbsOnly ? 1 : 2) }

    /// The width of the decoded picture after cropping (§7.4.2.1.1), in luma samples.
    public var width: Int { Int(codedWidth - cropUnitX * (cropLeft + cropRight)) }

    /// The height of the decoded frame after cropping, in luma samples.
    public var height: Int { Int(codedHeight - cropUnitY * (cropTop + cropBottom)) }
}
