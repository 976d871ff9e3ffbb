import Agent

/// The samples' video: the moving test pattern (``I420Frame/testPattern(width:height:frameIndex:)``)
/// encoded with our own ``VPXEncoder``, with a white picture at each ``SyncMark``.
///
/// Pts are in the encoder's 90 kHz timebase (frame `i` at `i * 3000`), the RTP video clock; the
/// writers convert them to their own units (IVF: frame numbers, WebM: milliseconds).
struct PatternVideo {
    static let width = 320
    static let height = 240
    static let framesPerSecond = 30
    static let seconds = 5
    /// A keyframe every second. A file is played as stored, so a subscriber that joins late (or
    /// sends a PLI) waits for the next stored keyframe: at most a second.
    static let keyframeInterval = 30
    static let bitrate = 500_000

    let frames: [VPXEncodedFrame]

    /// Encodes every frame of the clip.
    static func encode() throws(VPXError) -> PatternVideo {
        let encoder = try VPXEncoder(configuration: .init(
            codec: .vp8, bitrate: bitrate, framesPerSecond: framesPerSecond, keyframeInterval: keyframeInterval,
            speed: 6, errorResilient: true))
        let ptsPerFrame = Int64(90_000 / framesPerSecond)
        var frames: [VPXEncodedFrame] = []
        for index in 0..<(framesPerSecond * seconds) {
            frames += try encoder.encode(try picture(index), pts: Int64(index) * ptsPerFrame)
        }
        guard frames.count == framesPerSecond * seconds else {
            throw .invalidArgument("the encoder returned \(frames.count) frames for \(framesPerSecond * seconds) pictures")
        }
        return PatternVideo(frames: frames)
    }

    private static func picture(_ index: Int) throws(VPXError) -> I420Frame {
        do {
            if SyncMark.isMark(frameIndex: index, framesPerSecond: framesPerSecond) {
                return try I420Frame(width: width, height: height, luma: SyncMark.whiteLuma, chroma: 128)
            }
            return try I420Frame.testPattern(width: width, height: height, frameIndex: index)
        } catch {
            throw .invalidArgument("test picture \(index): \(error)")
        }
    }
}
