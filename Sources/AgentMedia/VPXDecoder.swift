import CAgentShims
import CVPX
import Synchronization

/// The decoder's historical name; it decodes VP9 too when created with `.vp9`.
public typealias VP8Decoder = VPXDecoder

/// Decodes VP8 (or VP9) frames into ``I420Frame``s with libvpx.
///
/// Input is one complete compressed frame as reassembled by a depacketizer (RFC 7741 §4 for VP8).
/// Corrupt or truncated input gives a ``VPXError``; libvpx then expects a keyframe, which is the
/// caller's cue to send a PLI.
public final class VPXDecoder: @unchecked Sendable {
    // @unchecked Sendable: the libvpx context is only touched inside `lock.withLock`.

    public let codec: VPXCodec
    private let lock = Mutex(())
    private let context: UnsafeMutablePointer<vpx_codec_ctx_t>

    public init(codec: VPXCodec = .vp8, threads: Int = 1) throws(VPXError) {
        guard threads > 0 else { throw .invalidArgument("threads must be > 0") }
        guard let interface = codec.decoderInterface else {
            throw .invalidArgument("libvpx was built without a \(codec) decoder")
        }
        self.codec = codec
        let context = UnsafeMutablePointer<vpx_codec_ctx_t>.allocate(capacity: 1)
        context.initialize(to: vpx_codec_ctx_t())
        var decoderConfig = vpx_codec_dec_cfg_t(threads: UInt32(threads), w: 0, h: 0)
        do {
            try VPXError.check(agent_vpx_codec_dec_init(context, interface, &decoderConfig, 0),
                               "vpx_codec_dec_init", context: context)
        } catch {
            // On failure libvpx has already released what it allocated inside the context.
            context.deallocate()
            throw error
        }
        self.context = context
    }

    deinit {
        vpx_codec_destroy(context)
        context.deallocate()
    }

    /// Decodes one compressed frame and returns the pictures it produced (normally one; none for
    /// a frame that is not shown, such as a VP9 superframe's hidden layer).
    public func decode(_ data: [UInt8]) throws(VPXError) -> [I420Frame] {
        guard !data.isEmpty else { throw .invalidArgument("empty frame") }
        guard data.count <= Int(UInt32.max) else { throw .invalidArgument("frame too large") }
        return try lock.withLock { _ throws(VPXError) in
            let status = data.withUnsafeBufferPointer { bytes in
                vpx_codec_decode(context, bytes.baseAddress, UInt32(bytes.count), nil, 0)
            }
            try VPXError.check(status, "vpx_codec_decode", context: context)
            var pictures: [I420Frame] = []
            var iterator: vpx_codec_iter_t?
            while let image = vpx_codec_get_frame(context, &iterator) {
                pictures.append(try Self.frame(from: image))
            }
            return pictures
        }
    }

    /// Copies a decoded libvpx image (which the decoder reuses) into a packed ``I420Frame``.
    private static func frame(from image: UnsafeMutablePointer<vpx_image_t>) throws(VPXError) -> I420Frame {
        let picture = image.pointee
        guard picture.fmt == VPX_IMG_FMT_I420 else { throw .unsupportedImageFormat(picture.fmt.rawValue) }
        let width = Int(picture.d_w), height = Int(picture.d_h)
        var frame: I420Frame
        do {
            frame = try I420Frame(width: width, height: height)
        } catch {
            throw .invalidArgument("decoder produced a \(width)x\(height) picture")
        }
        guard let lumaSource = picture.planes.0, let uSource = picture.planes.1, let vSource = picture.planes.2 else {
            throw .unsupportedImageFormat(picture.fmt.rawValue)
        }
        copyPlane(lumaSource, stride: picture.stride.0, width: width, height: height, into: &frame.y)
        copyPlane(uSource, stride: picture.stride.1, width: frame.chromaWidth, height: frame.chromaHeight,
                  into: &frame.u)
        copyPlane(vSource, stride: picture.stride.2, width: frame.chromaWidth, height: frame.chromaHeight,
                  into: &frame.v)
        return frame
    }

    /// Copies `height` rows of `width` bytes into a packed plane (stride == width).
    private static func copyPlane(_ source: UnsafeMutablePointer<UInt8>, stride: Int32, width: Int, height: Int,
                                  into destination: inout [UInt8]) {
        destination.withUnsafeMutableBufferPointer { destination in
            guard let base = destination.baseAddress else { return }
            for row in 0..<height {
                (base + row * width).update(from: source + row * Int(stride), count: width)
            }
        }
    }
}
