import COpenH264
import Synchronization

/// Realtime H.264 encoder over Cisco's libopenh264 (Debian `libopenh264-dev`), tuned as WebRTC
/// senders tune it: constrained baseline (CAVLC, no B frames: what every WebRTC receiver
/// decodes with packetization-mode 1), one slice per picture, bitrate-controlled, keyframes on a
/// long interval and on demand (``forceKeyframe()``, the answer to a PLI or FIR).
///
/// Each encoded frame is one access unit in Annex-B form (a start code before every NAL unit),
/// as the RTP packetizer and the Matroska writer take it; an IDR comes with its SPS and PPS.
/// The encoder is created on the first frame and re-created at another size (the first frame at
/// the new size is an IDR).
public final class OpenH264Encoder: @unchecked Sendable {
    // @unchecked Sendable: the encoder and the flags are touched only inside `lock.withLock`.

    public struct Configuration: Sendable, Equatable {
        /// Target bits per second.
        public var bitrate: Int
        public var framesPerSecond: Int
        /// Longest run of frames between automatic IDRs.
        public var keyframeInterval: Int
        public var threads: Int

        public init(bitrate: Int = 1_000_000, framesPerSecond: Int = 30, keyframeInterval: Int = 3000, threads: Int = 1) {
            self.bitrate = bitrate
            self.framesPerSecond = framesPerSecond
            self.keyframeInterval = keyframeInterval
            self.threads = threads
        }
    }

    /// One encoded access unit.
    public struct Frame: Sendable, Equatable {
        /// Annex-B: 00 00 00 01 before each NAL unit.
        public var bytes: [UInt8]
        /// An IDR (with SPS and PPS in front).
        public var isKeyframe: Bool
        public var width: Int
        public var height: Int
    }

    private let lock = Mutex(())
    private var configuration: Configuration
    private var encoder: UnsafeMutablePointer<UnsafePointer<ISVCEncoderVtbl>?>?
    private var activeSize: (width: Int, height: Int)?
    private var keyframeRequested = false

    public init(configuration: Configuration = Configuration()) throws(OpenH264Error) {
        guard configuration.bitrate >= 10_000 else { throw .invalidArgument("bitrate \(configuration.bitrate) < 10 kbps") }
        guard (1...240).contains(configuration.framesPerSecond) else { throw .invalidArgument("framesPerSecond must be 1...240") }
        guard configuration.keyframeInterval > 0 else { throw .invalidArgument("keyframeInterval must be > 0") }
        guard (1...16).contains(configuration.threads) else { throw .invalidArgument("threads must be 1...16") }
        self.configuration = configuration
    }

    deinit {
        tearDown()
    }

    /// Makes the next encoded frame an IDR. Safe from any thread.
    public func forceKeyframe() {
        lock.withLock { _ in keyframeRequested = true }
    }

    /// Changes the target bitrate from the next frame on, and the peak with it (half as much
    /// again, as at creation). Raising the target goes past the old peak, so the peak is set
    /// first then, and last when lowering.
    public func setBitrate(_ bitsPerSecond: Int) throws(OpenH264Error) {
        guard bitsPerSecond >= 10_000 else { throw .invalidArgument("bitrate \(bitsPerSecond) < 10 kbps") }
        try lock.withLock { _ throws(OpenH264Error) in
            let raising = bitsPerSecond > configuration.bitrate
            configuration.bitrate = bitsPerSecond
            guard let encoder, let vtable = encoder.pointee?.pointee else { return }
            let target = (ENCODER_OPTION_BITRATE, "ENCODER_OPTION_BITRATE", bitsPerSecond)
            let peak = (ENCODER_OPTION_MAX_BITRATE, "ENCODER_OPTION_MAX_BITRATE", Self.peakBitrate(bitsPerSecond))
            for (option, name, value) in raising ? [peak, target] : [target, peak] {
                var info = SBitrateInfo(iLayer: SPATIAL_LAYER_ALL, iBitrate: Int32(clamping: value))
                let status = vtable.SetOption(encoder, option, &info)
                guard status == 0 else { throw .library(operation: "SetOption(\(name))", code: Int(status)) }
            }
        }
    }

    /// The largest macroblock count of a picture and of its side: level 5.2, the highest of
    /// ITU-T H.264 Table A-1 (MaxFS 36864), and §A.3.1's bound of `sqrt(8 * MaxFS)` (543) on
    /// either side. libopenh264 refuses larger pictures or codes sides its own decoder refuses.
    public static let maxMacroblocks = 36_864
    public static let maxMacroblocksPerSide = 543

    /// Why a `width` x `height` picture cannot be coded, or nil. Beyond the level 5.2 bounds:
    /// at least 16x16 (libopenh264 fails smaller ones), and even sides, since 4:2:0 H.264 crops
    /// in units of two samples (§7.4.2.1.1, `CropUnitX`, `CropUnitY`): libopenh264 would drop an
    /// odd last row or column without saying so.
    public static func sizeRefusal(width: Int, height: Int) -> String? {
        let (columns, rows) = ((width + 15) / 16, (height + 15) / 16)
        if width < 16 || height < 16 || width % 2 != 0 || height % 2 != 0 {
            return "H.264 codes even sizes of at least 16x16, not \(width)x\(height)"
        }
        if columns > maxMacroblocksPerSide || rows > maxMacroblocksPerSide || columns * rows > maxMacroblocks {
            return "H.264 (level 5.2) codes at most \(maxMacroblocksPerSide * 16) pixels a side and \(maxMacroblocks) macroblocks "
                + "(4096x2304), not \(width)x\(height)"
        }
        return nil
    }

    /// The peak rate allowed over the target: half as much again (libopenh264 takes 32 bits).
    static func peakBitrate(_ bitsPerSecond: Int) -> Int {
        let bounded = min(bitsPerSecond, Int(Int32.max))
        return bounded + bounded / 2
    }

    /// Encodes one picture; nil when the rate control skipped it. `timestampMs` orders the
    /// encoder's frames (it needs increasing times for its rate control).
    public func encode(_ frame: I420Frame, timestampMs: Int64) throws(OpenH264Error) -> Frame? {
        do {
            try frame.validatePlanes()
        } catch {
            throw .invalidArgument("frame planes do not match \(frame.width)x\(frame.height): \(error)")
        }
        if let refusal = Self.sizeRefusal(width: frame.width, height: frame.height) { throw .invalidArgument(refusal) }
        return try lock.withLock { _ throws(OpenH264Error) in
            if activeSize?.width != frame.width || activeSize?.height != frame.height {
                try reinitialize(width: frame.width, height: frame.height)
            }
            guard let encoder, let vtable = encoder.pointee?.pointee else { throw .invalidArgument("no encoder") }
            if keyframeRequested {
                _ = vtable.ForceIntraFrame(encoder, true)
                keyframeRequested = false
            }
            var info = SFrameBSInfo()
            let status = frame.y.withUnsafeBufferPointer { y in
                frame.u.withUnsafeBufferPointer { u in
                    frame.v.withUnsafeBufferPointer { v in
                        var picture = SSourcePicture()
                        picture.iColorFormat = Int32(videoFormatI420.rawValue)
                        picture.iPicWidth = Int32(frame.width)
                        picture.iPicHeight = Int32(frame.height)
                        picture.iStride = (Int32(frame.yStride), Int32(frame.uvStride), Int32(frame.uvStride), 0)
                        picture.pData = (UnsafeMutablePointer(mutating: y.baseAddress), UnsafeMutablePointer(mutating: u.baseAddress),
                                         UnsafeMutablePointer(mutating: v.baseAddress), nil)
                        picture.uiTimeStamp = timestampMs
                        return vtable.EncodeFrame(encoder, &picture, &info)
                    }
                }
            }
            guard status == 0 else { throw .library(operation: "EncodeFrame", code: Int(status)) }
            guard info.eFrameType != videoFrameTypeSkip, info.eFrameType != videoFrameTypeInvalid else { return nil }
            let bytes = Self.annexB(of: &info)
            guard !bytes.isEmpty else { return nil }
            return Frame(bytes: bytes, isKeyframe: info.eFrameType == videoFrameTypeIDR, width: frame.width, height: frame.height)
        }
    }

    /// The NAL units of every layer, in order. libopenh264 writes them with 4-byte start codes
    /// already; each layer's NAL lengths add up to its bytes.
    private static func annexB(of info: inout SFrameBSInfo) -> [UInt8] {
        let layers = Int(max(0, min(info.iLayerNum, Int32(MAX_LAYER_NUM_OF_FRAME))))
        var bytes: [UInt8] = []
        withUnsafeBytes(of: &info.sLayerInfo) { raw in
            let layerInfo = raw.bindMemory(to: SLayerBSInfo.self)
            for layer in layerInfo.prefix(layers) {
                guard let buffer = layer.pBsBuf, let lengths = layer.pNalLengthInByte, layer.iNalCount > 0 else { continue }
                let size = (0..<Int(layer.iNalCount)).reduce(0) { $0 + Int(max(0, lengths[$1])) }
                bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
            }
        }
        return bytes
    }

    // MARK: Internals (called with the lock held)

    private func reinitialize(width: Int, height: Int) throws(OpenH264Error) {
        tearDown()
        var created: UnsafeMutablePointer<UnsafePointer<ISVCEncoderVtbl>?>?
        guard WelsCreateSVCEncoder(&created) == 0, let created, let vtable = created.pointee?.pointee else {
            throw .library(operation: "WelsCreateSVCEncoder", code: -1)
        }
        encoder = created
        var quiet = Int32(WELS_LOG_QUIET)
        _ = vtable.SetOption(created, ENCODER_OPTION_TRACE_LEVEL, &quiet)
        var parameters = SEncParamExt()
        _ = vtable.GetDefaultParams(created, &parameters)
        parameters.iUsageType = CAMERA_VIDEO_REAL_TIME
        parameters.iPicWidth = Int32(width)
        parameters.iPicHeight = Int32(height)
        parameters.iTargetBitrate = Int32(clamping: configuration.bitrate)
        parameters.iMaxBitrate = Int32(clamping: Self.peakBitrate(configuration.bitrate))
        parameters.iRCMode = RC_BITRATE_MODE
        parameters.fMaxFrameRate = Float(configuration.framesPerSecond)
        parameters.uiIntraPeriod = UInt32(clamping: configuration.keyframeInterval)
        parameters.iMultipleThreadIdc = UInt16(clamping: configuration.threads)
        parameters.iEntropyCodingModeFlag = 0  // CAVLC: constrained baseline
        parameters.bEnableFrameSkip = true
        // IDRs come at the interval and on request only: scene-change detection also took the
        // quality drop after a lower bitrate for a scene cut, and spent an IDR on it just when
        // bits are scarcest.
        parameters.bEnableSceneChangeDetect = false
        parameters.eSpsPpsIdStrategy = CONSTANT_ID
        parameters.iSpatialLayerNum = 1
        parameters.iTemporalLayerNum = 1
        parameters.sSpatialLayers.0.iVideoWidth = Int32(width)
        parameters.sSpatialLayers.0.iVideoHeight = Int32(height)
        parameters.sSpatialLayers.0.fFrameRate = Float(configuration.framesPerSecond)
        parameters.sSpatialLayers.0.iSpatialBitrate = Int32(clamping: configuration.bitrate)
        parameters.sSpatialLayers.0.iMaxSpatialBitrate = Int32(clamping: Self.peakBitrate(configuration.bitrate))
        parameters.sSpatialLayers.0.uiProfileIdc = PRO_BASELINE
        parameters.sSpatialLayers.0.sSliceArgument.uiSliceMode = SM_SINGLE_SLICE
        let status = vtable.InitializeExt(created, &parameters)
        guard status == 0 else {
            tearDown()
            throw .library(operation: "InitializeExt", code: Int(status))
        }
        activeSize = (width, height)
        // A fresh encoder starts with an IDR anyway; a pending request is satisfied by it.
        keyframeRequested = false
    }

    private func tearDown() {
        guard let encoder else { return }
        if let vtable = encoder.pointee?.pointee { _ = vtable.Uninitialize(encoder) }
        WelsDestroySVCEncoder(encoder)
        self.encoder = nil
        activeSize = nil
    }
}
