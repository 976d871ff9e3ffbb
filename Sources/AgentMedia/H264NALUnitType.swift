/// The type of an H.264 NAL unit: the low five bits of the one-byte NAL unit header
/// (ITU-T H.264 §7.3.1, §7.4.1 Table 7-1), and the RTP packet types RFC 6184 §5.2
/// puts in the values H.264 leaves unspecified (24-29).
///
///     +---------------+
///     |0|1|2|3|4|5|6|7|
///     +-+-+-+-+-+-+-+-+
///     |F|NRI|  Type   |
///     +---------------+
///
/// F (forbidden_zero_bit) is 0 in a valid stream; NRI (nal_ref_idc) is 0 for a NAL unit no
/// other picture refers to. Values without a case here (0, 17, 18, 22, 23, 30, 31) are
/// unspecified or reserved: `init(header:)` returns nil for them.
public enum H264NALUnitType: UInt8, Sendable, CaseIterable {
    /// Coded slice of a non-IDR picture.
    case nonIDRSlice = 1
    case sliceDataPartitionA = 2
    case sliceDataPartitionB = 3
    case sliceDataPartitionC = 4
    /// Coded slice of an IDR picture: decoding can start at its access unit.
    case idrSlice = 5
    /// Supplemental enhancement information.
    case sei = 6
    case sequenceParameterSet = 7
    case pictureParameterSet = 8
    case accessUnitDelimiter = 9
    case endOfSequence = 10
    case endOfStream = 11
    case fillerData = 12
    case sequenceParameterSetExtension = 13
    /// Prefix NAL unit (SVC, Annex G).
    case prefix = 14
    /// Subset sequence parameter set (SVC and MVC, Annexes G and H).
    case subsetSequenceParameterSet = 15
    /// Depth parameter set (3D-AVC, Annex J).
    case depthParameterSet = 16
    /// Coded slice of an auxiliary coded picture without partitioning.
    case auxiliarySlice = 19
    /// Coded slice extension (SVC and MVC).
    case sliceExtension = 20
    /// Coded slice extension for a depth view component (3D-AVC).
    case depthSliceExtension = 21
    /// RFC 6184 §5.7.1: single-time aggregation packet, the one aggregation packet of
    /// packetization-mode 1.
    case stapA = 24
    /// RFC 6184 §5.7.1: single-time aggregation packet with a decoding order number
    /// (interleaved mode only).
    case stapB = 25
    /// RFC 6184 §5.7.2: multi-time aggregation packets (interleaved mode only).
    case mtap16 = 26
    case mtap24 = 27
    /// RFC 6184 §5.8: fragmentation unit, the one fragmentation packet of packetization-mode 1.
    case fuA = 28
    /// RFC 6184 §5.8: fragmentation unit with a decoding order number (interleaved mode only).
    case fuB = 29

    /// The type of the NAL unit whose header byte (or RTP payload header, RFC 6184 §5.3) is
    /// `header`; nil for an unspecified or reserved value.
    public init?(header: UInt8) {
        self.init(rawValue: header & 0x1F)
    }

    /// The five type bits of a header byte, whether or not they name a known type.
    public static func bits(of header: UInt8) -> UInt8 { header & 0x1F }

    /// A slice of a coded picture (VCL NAL unit, types 1-5, H.264 §7.4.1).
    public var isVCL: Bool { (1...5).contains(rawValue) }

    /// A slice whose header begins with first_mb_in_slice (H.264 §7.3.3): non-IDR and IDR slices
    /// and partition A, the ones whose first bit tells whether they open a picture.
    public var startsWithFirstMacroblock: Bool {
        self == .nonIDRSlice || self == .idrSlice || self == .sliceDataPartitionA
    }

    /// An RTP packet type of RFC 6184 (24-29), not a NAL unit of the H.264 stream itself.
    public var isRTPPacketType: Bool { (24...29).contains(rawValue) }

    /// A non-VCL NAL unit that, when it follows the last VCL NAL unit of a picture, opens the
    /// next access unit (H.264 §7.4.1.2.3: access unit delimiter, SPS, PPS, SEI and types 14-18).
    /// The first slice of a picture (first_mb_in_slice 0) opens one too; see
    /// ``startsWithFirstMacroblock``.
    public var opensAccessUnit: Bool {
        switch self {
        case .accessUnitDelimiter, .sequenceParameterSet, .pictureParameterSet, .sei, .prefix,
            .subsetSequenceParameterSet, .depthParameterSet:
            true
        default:
            false
        }
    }
}
