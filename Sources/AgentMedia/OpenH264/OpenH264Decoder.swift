import COpenH264
import Synchronization

/// Decodes H.264 access units (Annex-B, as the depacketizer assembles them) into ``I420Frame``s
/// with Cisco's libopenh264 (Debian `libopenh264-dev`). Baseline and constrained baseline, which
/// is what WebRTC senders use with packetization-mode 1; libopenh264 also takes main and high
/// profile streams without B frames.
///
/// Corrupt or truncated input gives an ``OpenH264Error``; like libvpx the decoder then wants an
/// IDR, which is the caller's cue to send a PLI.
public final class OpenH264Decoder: @unchecked Sendable {
    // @unchecked Sendable: the decoder is only touched inside `lock.withLock`.

    private let lock = Mutex(())
    private let decoder: UnsafeMutablePointer<UnsafePointer<ISVCDecoderVtbl>?>

    public init() throws(OpenH264Error) {
        var created: UnsafeMutablePointer<UnsafePointer<ISVCDecoderVtbl>?>?
        guard WelsCreateDecoder(&created) == 0, let created, let vtable = created.pointee?.pointee else {
            throw .library(operation: "WelsCreateDecoder", code: -1)
        }
        var quiet = Int32(WELS_LOG_QUIET)
        _ = vtable.SetOption(created, DECODER_OPTION_TRACE_LEVEL, &quiet)
        var parameters = SDecodingParam()
        parameters.sVideoProperty.eVideoBsType = VIDEO_BITSTREAM_AVC
        parameters.eEcActiveIdc = ERROR_CON_DISABLE
        let status = vtable.Initialize(created, &parameters)
        guard status == 0 else {
            WelsDestroyDecoder(created)
            throw .library(operation: "Initialize", code: Int(status))
        }
        decoder = created
    }

    deinit {
        if let vtable = decoder.pointee?.pointee { _ = vtable.Uninitialize(decoder) }
        WelsDestroyDecoder(decoder)
    }

    /// Decodes one access unit and returns the picture it produced (none for one that only
    /// carried parameter sets).
    public func decode(_ data: [UInt8]) throws(OpenH264Error) -> [I420Frame] {
        guard !data.isEmpty else { throw .invalidArgument("empty access unit") }
        guard data.count <= Int(Int32.max) else { throw .invalidArgument("access unit too large") }
        return try lock.withLock { _ throws(OpenH264Error) in
            guard let vtable = decoder.pointee?.pointee else { throw .invalidArgument("no decoder") }
            var planes: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?) = (nil, nil, nil)
            var info = SBufferInfo()
            let state = data.withUnsafeBufferPointer { bytes in
                withUnsafeMutableBytes(of: &planes) { raw in
                    vtable.DecodeFrameNoDelay(decoder, bytes.baseAddress, Int32(bytes.count),
                                              raw.baseAddress?.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self), &info)
                }
            }
            guard state.rawValue == 0 else { throw .library(operation: "DecodeFrameNoDelay", code: Int(state.rawValue)) }
            guard info.iBufferStatus == 1 else { return [] }
            return [try Self.picture(planes: planes, info: info)]
        }
    }

    /// Copies the decoder's picture (valid until the next call) into an ``I420Frame``.
    private static func picture(
        planes: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?), info: SBufferInfo
    ) throws(OpenH264Error) -> I420Frame {
        let buffer = info.UsrData.sSystemBuffer
        let (width, height) = (Int(buffer.iWidth), Int(buffer.iHeight))
        let (yStride, uvStride) = (Int(buffer.iStride.0), Int(buffer.iStride.1))
        guard let y = planes.0, let u = planes.1, let v = planes.2, width > 0, height > 0, width <= I420Frame.maxDimension,
              height <= I420Frame.maxDimension, yStride >= width, uvStride >= (width + 1) / 2
        else { throw .invalidArgument("the decoder returned a picture without planes or with bad strides") }
        let chromaHeight = (height + 1) / 2
        do {
            return try I420Frame(
                width: width, height: height, yStride: yStride, uvStride: uvStride,
                y: Array(UnsafeBufferPointer(start: y, count: yStride * height)),
                u: Array(UnsafeBufferPointer(start: u, count: uvStride * chromaHeight)),
                v: Array(UnsafeBufferPointer(start: v, count: uvStride * chromaHeight)))
        } catch {
            throw .invalidArgument("decoded picture: \(error)")
        }
    }
}
