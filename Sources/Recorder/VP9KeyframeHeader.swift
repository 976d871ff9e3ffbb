/// Reads the frame size from a VP9 keyframe's uncompressed header, so a WebM video track can be
/// created with its size when the RTP layer did not hand over a scalability structure.
///
/// VP9 bitstream specification §6.2 (uncompressed_header), bits MSB first:
///
///     frame_marker(2)=2 | profile_low_bit(1) | profile_high_bit(1) | [reserved_zero(1) if profile 3]
///     show_existing_frame(1) | frame_type(1) (0 = key) | show_frame(1) | error_resilient_mode(1)
///     frame_sync_code(24) = 0x49 0x83 0x42
///     color_config: [ten_or_twelve_bit(1) if profile >= 2] | color_space(3)
///                   color_space != 7 (RGB): color_range(1) | [subsampling_x(1) subsampling_y(1) reserved(1) if profile 1 or 3]
///                   color_space == 7:       [reserved(1) if profile 1 or 3]
///     frame_width_minus_1(16) | frame_height_minus_1(16)
///
/// A superframe starts with its first frame, so reading from byte 0 is right for those too.
/// Never traps: anything short or malformed yields nil.
enum VP9KeyframeHeader {
    static func keyframeSize(of frame: [UInt8]) -> (width: Int, height: Int)? {
        var reader = BitReader(bytes: frame)
        guard let marker = reader.read(2), marker == 2,
              let low = reader.read(1), let high = reader.read(1) else { return nil }
        let profile = high << 1 | low
        if profile == 3 { guard reader.read(1) == 0 else { return nil } }
        guard reader.read(1) == 0,  // show_existing_frame: no header follows
              reader.read(1) == 0,  // frame_type: keyframe
              reader.read(2) != nil,  // show_frame, error_resilient_mode
              reader.read(8) == 0x49, reader.read(8) == 0x83, reader.read(8) == 0x42 else { return nil }
        if profile >= 2 { guard reader.read(1) != nil else { return nil } }
        guard let colorSpace = reader.read(3) else { return nil }
        if colorSpace != 7 {
            guard reader.read(1) != nil else { return nil }
            if profile == 1 || profile == 3 { guard reader.read(3) != nil else { return nil } }
        } else if profile == 1 || profile == 3 {
            guard reader.read(1) != nil else { return nil }
        }
        guard let widthMinusOne = reader.read(16), let heightMinusOne = reader.read(16) else { return nil }
        return (widthMinusOne + 1, heightMinusOne + 1)
    }

    private struct BitReader {
        let bytes: [UInt8]
        var bitOffset = 0

        /// The next `count` bits (at most 24) as an unsigned value, or nil past the end.
        mutating func read(_ count: Int) -> Int? {
            guard bitOffset + count <= bytes.count * 8 else { return nil }
            var value = 0
            for _ in 0..<count {
                let byte = bytes[bitOffset >> 3]
                value = value << 1 | Int(byte >> (7 - UInt8(bitOffset & 7)) & 1)
                bitOffset += 1
            }
            return value
        }
    }
}
