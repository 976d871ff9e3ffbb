import AgentCore

/// The identification header that opens an Ogg Opus stream (RFC 7845 §5.1). All fields are
/// little-endian:
///
///      0                   1                   2                   3
///      0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |      'O'      |      'p'      |      'u'      |      's'      |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |      'H'      |      'e'      |      'a'      |      'd'      |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |  Version = 1  | Channel Count |           Pre-skip            |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                     Input Sample Rate (Hz)                    |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |   Output Gain (Q7.8 in dB)    | Mapping Family|               |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+               :
///     :               Optional Channel Mapping Table...               :
///
/// Pre-skip is how many 48 kHz samples the decoder discards at the start (encoder delay); the
/// granule position of the stream counts them, so playback time is granule − pre-skip.
public struct OpusHead: Sendable, Equatable {
    public var version: UInt8
    public var channels: Int
    public var preSkip: Int
    /// The sample rate the encoder was fed; informational only (Opus always decodes at 48 kHz here).
    public var inputSampleRate: Int
    /// Gain to apply on output, Q7.8 dB.
    public var outputGain: Int16
    /// 0 = mono/stereo, one stream; others carry a channel mapping table (multistream).
    public var mappingFamily: UInt8

    public init(parsing packet: [UInt8]) throws(OggOpusReaderError) {
        guard packet.count >= 19 else { throw .badHead("\(packet.count) bytes, need 19") }
        guard packet[0..<8].elementsEqual("OpusHead".utf8) else { throw .badHead("no OpusHead magic") }
        let fields = try ByteReader.read(packet) { (reader: inout ByteReader) throws(OggOpusReaderError) in
            do throws(ByteRangeError) {
                try reader.skip(8)  // magic
                return (version: try reader.readUInt8(), channels: try reader.readUInt8(),
                        preSkip: try reader.readLittleEndian(UInt16.self), rate: try reader.readLittleEndian(UInt32.self),
                        gain: try reader.readLittleEndian(Int16.self), mapping: try reader.readUInt8())
            } catch {
                throw .badHead("\(packet.count) bytes, need 19")
            }
        }
        version = fields.version
        // §5.1: the major version is the upper four bits; only major 0 (versions 0-15) is readable.
        guard version >> 4 == 0 else { throw .badHead("unsupported version \(version)") }
        channels = Int(fields.channels)
        guard channels > 0 else { throw .badHead("zero channels") }
        preSkip = Int(fields.preSkip)
        inputSampleRate = Int(fields.rate)
        outputGain = fields.gain
        mappingFamily = fields.mapping
        if mappingFamily == 0 {
            guard channels <= 2 else { throw .badHead("mapping family 0 with \(channels) channels") }
        } else {
            guard packet.count >= 21 + channels else { throw .badHead("channel mapping table truncated") }
        }
    }

    /// Starts with the OpusHead magic (used to pick the Opus stream among multiplexed ones).
    static func isHead(_ packet: [UInt8]) -> Bool {
        packet.count >= 8 && packet[0..<8].elementsEqual("OpusHead".utf8)
    }
}
