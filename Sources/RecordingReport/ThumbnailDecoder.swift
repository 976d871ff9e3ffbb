import Agent
import BotKit

/// Decodes a stored video frame of one WebM/Matroska track into a picture: VP8 and VP9 as they
/// are, H.264 from its length-prefixed samples back to Annex B with the track's parameter sets
/// (CodecPrivate) in front, as OpenH264 wants it.
struct ThumbnailDecoder {
    private let decoder: VideoDecoder
    private var h264: H264SampleConverter?

    /// Nil for a codec we cannot decode or a track whose H.264 CodecPrivate does not parse.
    init?(track: WebMTrackInfo) {
        guard let codec = track.codec, codec.kind == .video, let decoder = try? VideoDecoder(codec: codec) else { return nil }
        if codec == .h264 {
            guard let record = try? AVCDecoderConfigurationRecord(parsing: track.codecPrivate) else { return nil }
            h264 = H264SampleConverter(configurationRecord: record)
        }
        self.decoder = decoder
    }

    /// The first picture the frame decodes to; nil when it does not decode.
    mutating func picture(_ bytes: [UInt8]) -> I420Frame? {
        var input = bytes
        if var converter = h264 {
            guard let unit = try? converter.accessUnit(fromSample: bytes) else { return nil }
            h264 = converter
            input = unit.annexB
        }
        return (try? decoder.decode(input))?.first
    }
}
