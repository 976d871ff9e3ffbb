import Agent

/// WAV, FLAC or Ogg Vorbis (anything libsndfile reads) encoded to Opus in 20 ms frames, timed
/// by sample count from the file's start: the encode path of `agentd play`.
///
/// 48 kHz files only for now; other rates are refused with a clear error until the resampler
/// lands. Stereo files are encoded as stereo Opus.
public final class PCMFileSource: EncodedFrameSource {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case unsupportedRate(Int)
        case unsupportedChannels(Int)

        public var description: String {
            switch self {
            case .unsupportedRate(let rate): "sample rate \(rate) Hz is not supported yet (48000 Hz only)"
            case .unsupportedChannels(let count): "\(count) channels are not supported (mono or stereo)"
            }
        }
    }

    public let path: String
    public let kind = TrackKind.audio
    public let channels: Int
    private var reader: SoundFileReader
    private let encoder: OpusEncoder
    private var samplesRead: Int64 = 0
    static let frameSamples = 960

    public init(path: String, bitrate: Int = 64_000) throws {
        self.path = path
        reader = try SoundFileReader(path: path)
        guard reader.info.sampleRate == 48_000 else { throw Error.unsupportedRate(reader.info.sampleRate) }
        guard (1...2).contains(reader.info.channels) else { throw Error.unsupportedChannels(reader.info.channels) }
        channels = reader.info.channels
        encoder = try OpusEncoder(configuration: .init(channels: channels, application: .audio, bitrate: bitrate))
    }

    public func next() throws -> EncodedMediaFrame? {
        var pcm = try reader.read(maxFrames: Self.frameSamples)
        guard !pcm.isEmpty else { return nil }
        // The last block is padded with silence to a whole 20 ms frame.
        if pcm.count < Self.frameSamples * channels { pcm += [Int16](repeating: 0, count: Self.frameSamples * channels - pcm.count) }
        let packet = try encoder.encode(pcm)
        let timestamp = samplesRead * 1_000_000_000 / 48_000
        samplesRead += Int64(Self.frameSamples)
        return EncodedMediaFrame(bytes: packet, timestampNanoseconds: timestamp, isKeyframe: true, codec: .opus)
    }

    public func rewind() throws {
        reader.close()
        reader = try SoundFileReader(path: path)
        samplesRead = 0
    }
}
