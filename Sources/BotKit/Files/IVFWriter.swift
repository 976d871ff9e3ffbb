import Agent
import Foundation

/// Writes VP8/VP9 frames into an IVF file (layout in ``IVFHeader`` and ``IVFReader``). Tests and
/// `scripts/make-samples` use it to store frames from our own ``VPXEncoder``; ffmpeg and libvpx's
/// tools read the result.
///
/// The header's frame count is patched on ``close()``, which is idempotent and keeps the first error.
public final class IVFWriter {
    public let path: String
    public private(set) var header: IVFHeader
    private var handle: FileHandle?
    private var closeResult: Result<Void, IVFError>?

    /// Creates (or truncates) `path`. `width` and `height` must fit 16 bits; pts passed to
    /// ``write(_:pts:)`` count `timebaseNumerator / timebaseDenominator` seconds (90 kHz by default,
    /// the RTP video clock and ``VPXEncoder``'s default timebase).
    public init(path: String, codec: VPXCodec, width: Int, height: Int, timebaseNumerator: UInt32 = 1,
                timebaseDenominator: UInt32 = 90_000) throws(IVFError) {
        guard (1...Int(UInt16.max)).contains(width), (1...Int(UInt16.max)).contains(height) else {
            throw .invalidArgument("size \(width)x\(height) does not fit IVF's 16-bit fields")
        }
        guard timebaseNumerator > 0, timebaseDenominator > 0 else {
            throw .badTimebase(numerator: timebaseNumerator, denominator: timebaseDenominator)
        }
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw .io(operation: "create", path: path, message: "cannot open for writing")
        }
        self.path = path
        self.handle = handle
        self.header = IVFHeader(codec: codec, width: width, height: height, timebaseNumerator: timebaseNumerator,
                                timebaseDenominator: timebaseDenominator)
        try write(header.encoded(), "write header")
    }

    deinit {
        _ = try? close()
    }

    /// Appends one frame with its pts in the header's timebase.
    public func write(_ frame: [UInt8], pts: Int64) throws(IVFError) {
        guard handle != nil else { throw .closed(path: path) }
        guard frame.count <= IVFReader.maxFrameSize else { throw .frameTooLarge(offset: -1, size: frame.count) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12 + frame.count)
        bytes.appendLittleEndian(UInt32(frame.count))
        bytes.appendLittleEndian(UInt64(bitPattern: pts))
        bytes += frame
        try write(bytes, "write frame")
        header.frameCount &+= 1
    }

    /// Appends a frame from ``VPXEncoder`` at its own pts.
    public func write(_ frame: VPXEncodedFrame) throws(IVFError) {
        try write(frame.data, pts: frame.pts)
    }

    /// Patches the frame count and closes the file. Later calls return the first call's result.
    public func close() throws(IVFError) {
        if let closeResult { return try closeResult.get() }
        guard let handle else { return }
        self.handle = nil
        let result: Result<Void, IVFError>
        do {
            try handle.seek(toOffset: 24)
            var count: [UInt8] = []
            count.appendLittleEndian(header.frameCount)
            try handle.write(contentsOf: count)
            try handle.close()
            result = .success(())
        } catch {
            try? handle.close()
            result = .failure(.io(operation: "close", path: path, message: "\(error)"))
        }
        closeResult = result
        try result.get()
    }

    private func write(_ bytes: [UInt8], _ operation: String) throws(IVFError) {
        guard let handle else { throw .closed(path: path) }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw .io(operation: operation, path: path, message: "\(error)")
        }
    }
}
