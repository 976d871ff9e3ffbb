import CAgentShims
import CVPX
import Synchronization

/// The encoder's historical name; it encodes VP9 too when configured with `.vp9`.
public typealias VP8Encoder = VPXEncoder

/// Realtime VP8 (or VP9) encoder over libvpx, tuned the way WebRTC senders tune it: one pass,
/// constant bitrate, no lookahead (each input frame comes straight back out), keyframes on a
/// long interval and on demand (``forceKeyframe()``, the answer to an RTCP PLI or FIR).
///
/// The encoder is created on the first frame and re-created when a frame of another size arrives,
/// so a bot can change resolution mid-stream; the first frame at the new size is a keyframe.
public final class VPXEncoder: @unchecked Sendable {
    // @unchecked Sendable: all libvpx state (`context`, `image`, `encoderConfig`, `activeSize`,
    // `keyframeRequested`) is touched only inside `lock.withLock`, so a PLI arriving on the
    // transport loop (forceKeyframe) and the media thread encoding are serialized.

    public struct Configuration: Sendable, Equatable {
        public var codec: VPXCodec
        /// Target bits per second.
        public var bitrate: Int
        public var framesPerSecond: Int
        /// Longest run of frames between automatic keyframes.
        public var keyframeInterval: Int
        /// libvpx speed: higher is faster and worse. VP8 takes it as a negative "realtime" cpu-used.
        public var speed: Int
        public var threads: Int
        /// Frames stay decodable after a lost reference frame (at some cost in efficiency).
        public var errorResilient: Bool
        /// Units of ``VPXEncodedFrame/pts`` per second; 90000 matches the RTP video clock.
        public var timebase: Int32

        public init(codec: VPXCodec = .vp8, bitrate: Int = 1_000_000, framesPerSecond: Int = 30,
                    keyframeInterval: Int = 3000, speed: Int = 8, threads: Int = 1,
                    errorResilient: Bool = true, timebase: Int32 = 90_000) {
            self.codec = codec
            self.bitrate = bitrate
            self.framesPerSecond = framesPerSecond
            self.keyframeInterval = keyframeInterval
            self.speed = speed
            self.threads = threads
            self.errorResilient = errorResilient
            self.timebase = timebase
        }
    }

    public var configuration: Configuration { lock.withLock { _ in storedConfiguration } }
    public let codec: VPXCodec

    private let lock = Mutex(())
    private var storedConfiguration: Configuration
    private let context: UnsafeMutablePointer<vpx_codec_ctx_t>
    private var encoderConfig = vpx_codec_enc_cfg_t()
    private var image: UnsafeMutablePointer<vpx_image_t>?
    private var activeSize: (width: Int, height: Int)?
    private var keyframeRequested = false

    public init(configuration: Configuration = Configuration()) throws(VPXError) {
        guard configuration.bitrate >= 1000 else { throw .invalidArgument("bitrate \(configuration.bitrate) < 1 kbps") }
        guard configuration.framesPerSecond > 0 else { throw .invalidArgument("framesPerSecond must be > 0") }
        guard configuration.keyframeInterval > 0 else { throw .invalidArgument("keyframeInterval must be > 0") }
        guard configuration.timebase > 0 else { throw .invalidArgument("timebase must be > 0") }
        guard configuration.threads > 0 else { throw .invalidArgument("threads must be > 0") }
        self.storedConfiguration = configuration
        self.codec = configuration.codec
        context = .allocate(capacity: 1)
        context.initialize(to: vpx_codec_ctx_t())
    }

    deinit {
        tearDown()
        context.deallocate()
    }

    /// Makes the next encoded frame a keyframe. Safe from any thread.
    public func forceKeyframe() {
        lock.withLock { _ in keyframeRequested = true }
    }

    /// Changes the target bitrate from the next frame on (e.g. after a REMB estimate).
    public func setBitrate(_ bitsPerSecond: Int) throws(VPXError) {
        guard bitsPerSecond >= 1000 else { throw .invalidArgument("bitrate \(bitsPerSecond) < 1 kbps") }
        try lock.withLock { _ throws(VPXError) in
            storedConfiguration.bitrate = bitsPerSecond
            guard activeSize != nil else { return }
            encoderConfig.rc_target_bitrate = UInt32(clamping: bitsPerSecond / 1000)
            try VPXError.check(vpx_codec_enc_config_set(context, &encoderConfig), "vpx_codec_enc_config_set",
                               context: context)
        }
    }

    /// Encodes `frame` shown at `pts` (in ``Configuration/timebase`` units) and returns what libvpx
    /// emitted: normally one frame, none if rate control dropped it.
    public func encode(_ frame: I420Frame, pts: Int64) throws(VPXError) -> [VPXEncodedFrame] {
        do {
            try frame.validatePlanes()
        } catch {
            throw .invalidArgument("frame planes do not match \(frame.width)x\(frame.height): \(error)")
        }
        return try lock.withLock { _ throws(VPXError) in
            if activeSize?.width != frame.width || activeSize?.height != frame.height {
                try reinitialize(width: frame.width, height: frame.height)
            }
            guard let image else { throw .invalidArgument("no image buffer") }
            Self.copy(frame, into: image)
            let duration = UInt(max(1, Int(storedConfiguration.timebase) / storedConfiguration.framesPerSecond))
            let flags: vpx_enc_frame_flags_t = keyframeRequested ? vpx_enc_frame_flags_t(VPX_EFLAG_FORCE_KF) : 0
            let status = vpx_codec_encode(context, image, vpx_codec_pts_t(pts), duration, flags,
                                          UInt(VPX_DL_REALTIME))
            try VPXError.check(status, "vpx_codec_encode", context: context)
            keyframeRequested = false
            return collectPackets(width: frame.width, height: frame.height)
        }
    }

    // MARK: Internals (called with the lock held)

    private func collectPackets(width: Int, height: Int) -> [VPXEncodedFrame] {
        var frames: [VPXEncodedFrame] = []
        var iterator: vpx_codec_iter_t?
        while let packet = vpx_codec_get_cx_data(context, &iterator) {
            guard packet.pointee.kind == VPX_CODEC_CX_FRAME_PKT else { continue }
            let compressed = packet.pointee.data.frame
            let bytes = compressed.buf.map {
                Array(UnsafeRawBufferPointer(start: $0, count: compressed.sz))
            } ?? []
            frames.append(VPXEncodedFrame(codec: codec, data: bytes,
                                          isKeyframe: compressed.flags & vpx_codec_frame_flags_t(VPX_FRAME_IS_KEY) != 0,
                                          pts: Int64(compressed.pts), width: width, height: height))
        }
        return frames
    }

    /// Creates (or re-creates) the libvpx encoder for a new picture size. Re-creating rather than
    /// calling vpx_codec_enc_config_set works for growing sizes too, which VP8 refuses otherwise.
    private func reinitialize(width: Int, height: Int) throws(VPXError) {
        tearDown()
        let configuration = storedConfiguration
        guard let interface = configuration.codec.encoderInterface else {
            throw .invalidArgument("libvpx was built without a \(configuration.codec) encoder")
        }
        try VPXError.check(vpx_codec_enc_config_default(interface, &encoderConfig, 0),
                           "vpx_codec_enc_config_default", context: nil)
        encoderConfig.g_w = UInt32(width)
        encoderConfig.g_h = UInt32(height)
        encoderConfig.g_timebase = vpx_rational(num: 1, den: configuration.timebase)
        encoderConfig.g_threads = UInt32(configuration.threads)
        encoderConfig.g_pass = VPX_RC_ONE_PASS
        encoderConfig.g_lag_in_frames = 0
        encoderConfig.g_error_resilient = configuration.errorResilient ? vpx_codec_er_flags_t(VPX_ERROR_RESILIENT_DEFAULT) : 0
        encoderConfig.rc_end_usage = VPX_CBR
        encoderConfig.rc_target_bitrate = UInt32(clamping: configuration.bitrate / 1000)
        encoderConfig.rc_min_quantizer = 2
        encoderConfig.rc_max_quantizer = 56
        encoderConfig.rc_undershoot_pct = 100
        encoderConfig.rc_overshoot_pct = 15
        encoderConfig.rc_buf_initial_sz = 500
        encoderConfig.rc_buf_optimal_sz = 600
        encoderConfig.rc_buf_sz = 1000
        encoderConfig.rc_dropframe_thresh = 0
        encoderConfig.rc_resize_allowed = 0
        encoderConfig.kf_mode = VPX_KF_AUTO
        encoderConfig.kf_min_dist = 0
        encoderConfig.kf_max_dist = UInt32(clamping: configuration.keyframeInterval)

        try VPXError.check(agent_vpx_codec_enc_init(context, interface, &encoderConfig, 0),
                           "vpx_codec_enc_init", context: context)
        activeSize = (width, height)
        guard let image = vpx_img_alloc(nil, VPX_IMG_FMT_I420, UInt32(width), UInt32(height), 16) else {
            tearDown()
            throw .library(operation: "vpx_img_alloc", code: VPX_CODEC_MEM_ERROR.rawValue,
                           message: "out of memory", detail: nil)
        }
        self.image = image
        do {
            try applyRealtimeControls(configuration)
        } catch {
            tearDown()
            throw error
        }
        // A fresh encoder starts with a keyframe anyway; a pending request is satisfied by it.
        keyframeRequested = false
    }

    private func applyRealtimeControls(_ configuration: Configuration) throws(VPXError) {
        switch configuration.codec {
        case .vp8:
            // Negative cpu-used selects VP8's realtime mode with that speed.
            try control(VP8E_SET_CPUUSED.rawValue, -min(16, max(1, configuration.speed)), "VP8E_SET_CPUUSED")
            try control(VP8E_SET_NOISE_SENSITIVITY.rawValue, 0, "VP8E_SET_NOISE_SENSITIVITY")
            try control(VP8E_SET_STATIC_THRESHOLD.rawValue, 1, "VP8E_SET_STATIC_THRESHOLD")
        case .vp9:
            try control(VP8E_SET_CPUUSED.rawValue, min(9, max(5, configuration.speed)), "VP8E_SET_CPUUSED")
            // Cyclic refresh: spreads intra refresh over frames, as WebRTC's VP9 does.
            try control(VP9E_SET_AQ_MODE.rawValue, 3, "VP9E_SET_AQ_MODE")
            try control(VP9E_SET_ROW_MT.rawValue, 1, "VP9E_SET_ROW_MT")
        }
    }

    private func control(_ id: UInt32, _ value: Int, _ name: String) throws(VPXError) {
        try VPXError.check(agent_vpx_codec_control_int(context, Int32(id), Int32(value)), name, context: context)
    }

    private func tearDown() {
        if activeSize != nil {
            vpx_codec_destroy(context)
            activeSize = nil
        }
        if let image {
            vpx_img_free(image)
            self.image = nil
        }
    }

    /// Copies the visible part of each plane row by row, since the strides usually differ.
    private static func copy(_ frame: I420Frame, into image: UnsafeMutablePointer<vpx_image_t>) {
        let picture = image.pointee
        copyPlane(frame.y, stride: frame.yStride, width: frame.width, height: frame.height,
                  to: picture.planes.0, stride: picture.stride.0)
        copyPlane(frame.u, stride: frame.uvStride, width: frame.chromaWidth, height: frame.chromaHeight,
                  to: picture.planes.1, stride: picture.stride.1)
        copyPlane(frame.v, stride: frame.uvStride, width: frame.chromaWidth, height: frame.chromaHeight,
                  to: picture.planes.2, stride: picture.stride.2)
    }

    private static func copyPlane(_ source: [UInt8], stride sourceStride: Int, width: Int, height: Int,
                                  to destination: UnsafeMutablePointer<UInt8>?, stride destinationStride: Int32) {
        guard let destination else { return }
        source.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<height {
                (destination + row * Int(destinationStride)).update(from: base + row * sourceStride, count: width)
            }
        }
    }
}
