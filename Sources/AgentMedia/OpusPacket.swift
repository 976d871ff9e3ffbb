/// Facts read from an Opus packet's TOC byte (RFC 6716 §3.1) without decoding it.
///
///      0 1 2 3 4 5 6 7
///     +-+-+-+-+-+-+-+-+
///     | config  |s| c |
///     +-+-+-+-+-+-+-+-+
///
/// `config` picks mode, bandwidth and frame size; `c` says one frame (0), two equal (1), two
/// different (2) or an arbitrary count given in the next byte (3).
public enum OpusPacket {
    public enum Error: Swift.Error, Equatable, Sendable {
        case empty
        case missingFrameCount
        case tooLong(samples: Int)
    }

    /// Samples per channel of one frame at 48 kHz for a TOC config.
    public static func frameSamples(config: Int) -> Int {
        switch config {
        case 0..<12:  // SILK: 10, 20, 40, 60 ms
            return [480, 960, 1920, 2880][config % 4]
        case 12..<16:  // Hybrid: 10, 20 ms
            return [480, 960][config % 2]
        default:  // CELT: 2.5, 5, 10, 20 ms
            return [120, 240, 480, 960][config % 4]
        }
    }

    /// Samples per channel at 48 kHz that `packet` decodes to. At most 120 ms (5760) is valid.
    public static func sampleCount(_ packet: UnsafeRawBufferPointer) throws(Error) -> Int {
        guard let toc = packet.first else { throw .empty }
        let perFrame = frameSamples(config: Int(toc >> 3))
        let frames: Int
        switch toc & 0x03 {
        case 0: frames = 1
        case 1, 2: frames = 2
        default:
            guard packet.count >= 2 else { throw .missingFrameCount }
            frames = Int(packet[1] & 0x3F)
        }
        let samples = frames * perFrame
        guard samples <= 5760 else { throw .tooLong(samples: samples) }
        return samples
    }

    public static func sampleCount(_ packet: [UInt8]) throws(Error) -> Int {
        let result = packet.withUnsafeBytes { buffer in Result { () throws(Error) in try sampleCount(buffer) } }
        return try result.get()
    }

    /// A TOC-only packet (one frame of zero bytes) with the given config: decoders treat it as
    /// "nothing sent" (DTX), which is how gaps are filled without re-encoding.
    public static func emptyFrame(config: UInt8, stereo: Bool) -> [UInt8] {
        [config << 3 | (stereo ? 0x04 : 0)]
    }
}
