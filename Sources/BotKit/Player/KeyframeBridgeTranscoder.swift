import Agent

/// Makes a keyframe out of video that is played as stored, and carries the stream on with frames
/// of its own until the file's next keyframe, where the stored frames take over again.
///
/// A file's frames can only be sent as they are, so a receiver that asks for a keyframe (a
/// subscriber that joined mid-stream, or lost a reference) would wait for the next one stored, a
/// keyframe interval away (a second for agentd-samples, several for ffmpeg's libvpx defaults),
/// while audio plays at once. Here the frames since the last stored keyframe are decoded (the
/// decoder then holds the picture the receiver should be seeing), and each later stored frame is
/// decoded and encoded again, the first as a keyframe. The encoder's frames reference only each
/// other, so the stream stays valid; at the next stored keyframe every reference is reset and
/// the stored frames go out as they are again.
///
///     stored:  K d d d d d d d d d d K d d
///     sent:    K d d d k e e e e e e K d d      (k, e: ours; the request came after the 4th d)
///
/// VP8 and VP9 (libvpx) and H.264 (libopenh264); the bridge is not started for another codec.
/// Not thread-safe: one worker lane owns it.
final class KeyframeBridgeTranscoder {
    enum Mode: Equatable {
        /// Encoding our own frames; the next stored keyframe ends it.
        case bridging
        /// Frames go out as stored (the stored keyframe came, or the bridge failed).
        case passing
    }

    /// The longest run of stored frames decoded to catch up (10 s at 30 fps): a longer one costs
    /// more than waiting for the stored keyframe.
    static let maxCatchUpFrames = 300
    /// The bitrate when the stored frames do not tell one (one frame, or no time between them).
    static let defaultBitrate = 1_000_000

    private(set) var mode: Mode = .passing
    /// Why the bridge stopped early (a decode or encode error), if it did.
    private(set) var failure: String?
    private(set) var framesEncoded = 0
    private var decoder: VideoDecoder?
    private var encoder: VideoEncoder?
    private var forceNext = false

    /// Catches up on `stored`, the frames sent since (and with) the last stored keyframe, in
    /// order. The next ``process(_:)`` of a frame after them gives our keyframe. Returns false
    /// (and stays passing) when there is nothing to bridge from or no library for the codec.
    func start(after stored: [EncodedMediaFrame]) -> Bool {
        guard let first = stored.first, first.isKeyframe, stored.count <= Self.maxCatchUpFrames,
              first.codec.kind == .video, stored.allSatisfy({ $0.codec == first.codec })
        else { return false }
        do throws(VideoCodecError) {
            let decoder = try VideoDecoder(codec: first.codec)
            for frame in stored { _ = try decoder.decode(frame.bytes) }
            encoder = try VideoEncoder(codec: first.codec, bitrate: Self.bitrate(of: stored))
            self.decoder = decoder
        } catch {
            fail(error)
            return false
        }
        mode = .bridging
        forceNext = true
        failure = nil
        return true
    }

    /// What to send in place of stored `frame`: ours while bridging (none when the encoder dropped
    /// one), or `frame` itself once passing (from the next stored keyframe on).
    enum Output {
        case stored
        case bridged([EncodedMediaFrame])
    }

    func process(_ frame: EncodedMediaFrame) -> Output {
        guard mode == .bridging else { return .stored }
        guard !frame.isKeyframe, frame.codec == decoder?.codec, let decoder, let encoder else {
            stop()
            return .stored
        }
        do throws(VideoCodecError) {
            var out: [EncodedMediaFrame] = []
            for picture in try decoder.decode(frame.bytes) {
                if forceNext {
                    encoder.forceKeyframe()
                    forceNext = false
                }
                // The index only orders the encoder's frames; the RTP time comes from the stored one.
                for encoded in try encoder.encode(picture, index: Int64(framesEncoded)) {
                    out.append(EncodedMediaFrame(bytes: encoded.bytes, timestampNanoseconds: frame.timestampNanoseconds,
                                                 isKeyframe: encoded.isKeyframe, codec: frame.codec))
                    framesEncoded += 1
                }
            }
            return .bridged(out)
        } catch {
            // The receiver has some of our frames; the stored ones do not follow from them, so
            // it waits for the next stored keyframe, as it would have without the bridge.
            fail(error)
            return .stored
        }
    }

    private func fail(_ error: VideoCodecError) {
        failure = String(describing: error)
        stop()
    }

    /// Back to passing stored frames (a reconnect, or the bridge's end), releasing libvpx.
    func stop() {
        mode = .passing
        decoder = nil
        encoder = nil
    }

    /// The stored frames' bitrate: their bytes over the time they span, at least 100 kbps.
    static func bitrate(of frames: [EncodedMediaFrame]) -> Int {
        guard let first = frames.first, let last = frames.last, frames.count > 1 else { return defaultBitrate }
        let (span, overflow) = last.timestampNanoseconds.subtractingReportingOverflow(first.timestampNanoseconds)
        guard !overflow, span > 0 else { return defaultBitrate }
        // Bytes of all but the last frame, over the span from the first to the last frame's start.
        let bytes = frames.dropLast().reduce(0) { $0 + $1.bytes.count }
        let bits = Double(bytes) * 8 * 1e9 / Double(span)
        return bits.isFinite ? max(100_000, min(20_000_000, Int(bits))) : defaultBitrate
    }
}
