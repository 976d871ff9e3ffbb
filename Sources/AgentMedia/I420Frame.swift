import Foundation

/// One uncompressed video picture in I420: planar YUV 4:2:0, 8 bits per sample.
///
/// This is what libvpx encodes from and decodes to, and what bots produce. Three planes, each
/// stored row by row with a stride (bytes from one row to the next) that may exceed the visible
/// width, as decoders align rows:
///
/// ```
///   Y plane  width x height            U plane  chromaWidth x chromaHeight   V plane (same as U)
///   +-------------------+---+          +---------+--+                        +---------+--+
///   | visible           |pad|          | visible |  |                        | visible |  |
///   |                   |   |          +---------+--+                        +---------+--+
///   +-------------------+---+             chromaWidth = (width + 1) / 2
///   <------- yStride ------->             chromaHeight = (height + 1) / 2
/// ```
///
/// Odd sizes are legal: the last chroma column/row then covers a single luma column/row.
public struct I420Frame: Sendable, Equatable {
    /// Largest dimension accepted; VP8 itself stops at 16383.
    public static let maxDimension = 16_384

    public let width: Int
    public let height: Int
    public let yStride: Int
    /// Stride of both chroma planes.
    public let uvStride: Int
    /// The planes may be edited in place; code that hands them to C (the VPX encoder) checks
    /// ``validatePlanes()`` first, so a plane shrunk below its geometry is an error, not an overread.
    public var y: [UInt8]
    public var u: [UInt8]
    public var v: [UInt8]

    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }

    /// A frame of one flat colour (default: black in video range, Y=16 U=V=128), rows packed.
    public init(width: Int, height: Int, luma: UInt8 = 16, chroma: UInt8 = 128) throws(I420FrameError) {
        try Self.validate(width: width, height: height)
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        self.width = width
        self.height = height
        self.yStride = width
        self.uvStride = chromaWidth
        self.y = [UInt8](repeating: luma, count: width * height)
        self.u = [UInt8](repeating: chroma, count: chromaWidth * chromaHeight)
        self.v = [UInt8](repeating: chroma, count: chromaWidth * chromaHeight)
    }

    /// Wraps existing planes after checking they are big enough for the given size and strides.
    public init(width: Int, height: Int, yStride: Int, uvStride: Int,
                y: [UInt8], u: [UInt8], v: [UInt8]) throws(I420FrameError) {
        try Self.validate(width: width, height: height)
        let chromaWidth = (width + 1) / 2
        guard yStride >= width else { throw .strideTooSmall(plane: "Y", stride: yStride, width: width) }
        guard uvStride >= chromaWidth else {
            throw .strideTooSmall(plane: "U/V", stride: uvStride, width: chromaWidth)
        }
        self.width = width
        self.height = height
        self.yStride = yStride
        self.uvStride = uvStride
        self.y = y
        self.u = u
        self.v = v
        try validatePlanes()
    }

    /// Throws when a plane is shorter than the size and strides require (possible only after the
    /// planes were edited).
    public func validatePlanes() throws(I420FrameError) {
        let lumaNeeded = yStride * (height - 1) + width
        let chromaNeeded = uvStride * (chromaHeight - 1) + chromaWidth
        guard y.count >= lumaNeeded else { throw .planeTooSmall(plane: "Y", needed: lumaNeeded, got: y.count) }
        guard u.count >= chromaNeeded else { throw .planeTooSmall(plane: "U", needed: chromaNeeded, got: u.count) }
        guard v.count >= chromaNeeded else { throw .planeTooSmall(plane: "V", needed: chromaNeeded, got: v.count) }
    }

    private static func validate(width: Int, height: Int) throws(I420FrameError) {
        guard (1...maxDimension).contains(width), (1...maxDimension).contains(height) else {
            throw .invalidDimensions(width: width, height: height)
        }
    }

    // MARK: Samples

    public func luma(x: Int, y row: Int) -> UInt8 { y[row * yStride + x] }
    public func chromaU(x: Int, y row: Int) -> UInt8 { u[row * uvStride + x] }
    public func chromaV(x: Int, y row: Int) -> UInt8 { v[row * uvStride + x] }

    /// The visible samples as one packed buffer, Y then U then V with no row padding: the layout
    /// of a raw `.yuv` file or a Y4M frame.
    public func packedPlanes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * height + 2 * chromaWidth * chromaHeight)
        for row in 0..<height { out.append(contentsOf: y[(row * yStride)..<(row * yStride + width)]) }
        for plane in [u, v] {
            for row in 0..<chromaHeight {
                out.append(contentsOf: plane[(row * uvStride)..<(row * uvStride + chromaWidth)])
            }
        }
        return out
    }

    /// This frame with rows packed (stride == width), so equal pictures compare equal.
    public func packed() -> I420Frame {
        guard yStride != width || uvStride != chromaWidth else { return self }
        let bytes = packedPlanes()
        let lumaCount = width * height, chromaCount = chromaWidth * chromaHeight
        // The sizes match by construction, so this cannot fail.
        return (try? I420Frame(width: width, height: height, yStride: width, uvStride: chromaWidth,
                               y: Array(bytes[0..<lumaCount]),
                               u: Array(bytes[lumaCount..<(lumaCount + chromaCount)]),
                               v: Array(bytes[(lumaCount + chromaCount)...]))) ?? self
    }

    // MARK: Quality

    /// Peak signal-to-noise ratio in dB against `reference` over all three planes, weighted by
    /// sample count (the usual "YUV PSNR"). Infinity when identical; nil when the sizes differ.
    public func psnr(against reference: I420Frame) -> Double? {
        guard width == reference.width, height == reference.height else { return nil }
        let lumaError = Self.squaredError(y, yStride, reference.y, reference.yStride, width, height)
        let uError = Self.squaredError(u, uvStride, reference.u, reference.uvStride, chromaWidth, chromaHeight)
        let vError = Self.squaredError(v, uvStride, reference.v, reference.uvStride, chromaWidth, chromaHeight)
        let samples = Double(width * height + 2 * chromaWidth * chromaHeight)
        return Self.psnr(meanSquaredError: (lumaError + uError + vError) / samples)
    }

    /// PSNR of the Y plane only, in dB.
    public func lumaPSNR(against reference: I420Frame) -> Double? {
        guard width == reference.width, height == reference.height else { return nil }
        let error = Self.squaredError(y, yStride, reference.y, reference.yStride, width, height)
        return Self.psnr(meanSquaredError: error / Double(width * height))
    }

    private static func psnr(meanSquaredError: Double) -> Double {
        meanSquaredError == 0 ? .infinity : 10 * log10(255 * 255 / meanSquaredError)
    }

    private static func squaredError(_ a: [UInt8], _ aStride: Int, _ b: [UInt8], _ bStride: Int,
                                     _ width: Int, _ height: Int) -> Double {
        var total = 0
        for row in 0..<height {
            let aRow = row * aStride, bRow = row * bStride
            for column in 0..<width {
                let difference = Int(a[aRow + column]) - Int(b[bRow + column])
                total += difference * difference
            }
        }
        return Double(total)
    }
}
