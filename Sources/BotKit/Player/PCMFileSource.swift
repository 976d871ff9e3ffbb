import Agent

/// WAV, FLAC or Ogg Vorbis (anything libsndfile reads) encoded to Opus in 20 ms frames, timed
/// by sample count from the file's start: the encode path of `agentd play`.
///
/// Files at any rate the resampler takes (8 ... 192 kHz) are brought to Opus's 48 kHz on the way;
/// timestamps count 48 kHz samples, so they stay exact whatever the file's rate. Stereo files are
/// encoded as stereo Opus.
public final class PCMFileSource: EncodedFrameSource {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case unsupportedChannels(Int)

        public var description: String {
            switch self {
            case .unsupportedChannels(let count): "\(count) channels are not supported (mono or stereo)"
            }
        }
    }

    public let path: String
    public let kind = MediaKind.audio
    public let codec = MediaCodec.opus
    public let channels: Int
    /// The file's own sample rate.
    public let fileSampleRate: Int
    private var reader: SoundFileReader
    /// Medium quality: a file is often music, and there is one per player, so the wider pass band
    /// is worth its cost here (a live ``AudioTrack`` uses the fastest converter).
    private let resampler: AudioResampler
    private let encoder: OpusEncoder
    /// 48 kHz samples resampled but not yet encoded.
    private var pending: [Float] = []
    private var reachedEnd = false
    private var samplesEncoded: Int64 = 0
    private var packet: [UInt8] = []
    static let frameSamples = 960

    public init(path: String, bitrate: Int = 64_000) throws {
        self.path = path
        reader = try SoundFileReader(path: path)
        guard (1...2).contains(reader.info.channels) else { throw Error.unsupportedChannels(reader.info.channels) }
        channels = reader.info.channels
        fileSampleRate = reader.info.sampleRate
        resampler = try AudioResampler(inputRate: fileSampleRate, outputRate: OpusEncoder.sampleRate,
                                       channels: channels, quality: .medium)
        encoder = try OpusEncoder(configuration: .init(channels: channels, application: .audio, bitrate: bitrate))
    }

    public func next() throws -> EncodedMediaFrame? {
        let frameLength = Self.frameSamples * channels
        while pending.count < frameLength && !reachedEnd {
            let block = try reader.readFloat(maxFrames: max(1, fileSampleRate / 50))
            if block.isEmpty {
                reachedEnd = true
                pending += try resampler.flush()
            } else {
                pending += try resampler.process(block)
            }
        }
        guard !pending.isEmpty else { return nil }
        var frame = Array(pending.prefix(frameLength))
        pending.removeFirst(frame.count)
        // The last block is padded with silence to a whole 20 ms frame.
        frame += repeatElement(0, count: frameLength - frame.count)
        try encoder.encode(frame, into: &packet)
        let timestamp = samplesEncoded * 1_000_000_000 / Int64(OpusEncoder.sampleRate)
        samplesEncoded += Int64(Self.frameSamples)
        return EncodedMediaFrame(bytes: packet, timestampNanoseconds: timestamp, isKeyframe: true, codec: .opus)
    }

    public func rewind() throws {
        reader.close()
        reader = try SoundFileReader(path: path)
        resampler.reset()
        pending.removeAll()
        reachedEnd = false
        samplesEncoded = 0
    }
}
