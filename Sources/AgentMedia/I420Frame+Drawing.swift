import CYUV

/// Drawing into a picture with libyuv (Debian `libyuv-dev`): flat rectangles and scaled copies of
/// another picture, the two steps a compositor's canvas needs.
///
/// Regions are given in luma samples and must lie inside the frame; x and y must be even, so the
/// chroma planes (half size) start on the same sample as the luma. A region that breaks either
/// rule is an error, never a write past a plane.
extension I420Frame {
    /// A region of a picture in luma samples.
    public struct Region: Sendable, Equatable, CustomStringConvertible {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        public var description: String { "\(width)x\(height)+\(x)+\(y)" }
        public var area: Int { width * height }
    }

    /// Fills `region` with one colour (Y, U, V).
    public mutating func fill(_ region: Region, luma: UInt8, u chromaU: UInt8, v chromaV: UInt8) throws(I420FrameError) {
        try checkDrawable(region)
        let (yStride, uvStride) = (Int32(self.yStride), Int32(self.uvStride))
        let status = y.withUnsafeMutableBufferPointer { lumaPlane in
            u.withUnsafeMutableBufferPointer { uPlane in
                v.withUnsafeMutableBufferPointer { vPlane in
                    I420Rect(lumaPlane.baseAddress, yStride, uPlane.baseAddress, uvStride, vPlane.baseAddress, uvStride,
                             Int32(region.x), Int32(region.y), Int32(region.width), Int32(region.height),
                             Int32(luma), Int32(chromaU), Int32(chromaV))
                }
            }
        }
        guard status == 0 else { throw .drawingFailed("I420Rect returned \(status)") }
    }

    /// Scales all of `source` into `region` (bilinear; box filtering when it shrinks by more than
    /// half, which keeps fine patterns from aliasing).
    public mutating func draw(_ source: I420Frame, scaledInto region: Region) throws(I420FrameError) {
        try checkDrawable(region)
        do {
            try source.validatePlanes()
        } catch {
            throw .drawingFailed("source picture: \(error)")
        }
        let shrinksMuch = source.width >= 2 * region.width || source.height >= 2 * region.height
        let filter = shrinksMuch ? kFilterBox : kFilterBilinear
        let (yStride, uvStride) = (Int(self.yStride), Int(self.uvStride))
        let lumaOffset = region.y * yStride + region.x
        let chromaOffset = (region.y / 2) * uvStride + region.x / 2
        let status = source.y.withUnsafeBufferPointer { sourceY in
            source.u.withUnsafeBufferPointer { sourceU in
                source.v.withUnsafeBufferPointer { sourceV in
                    y.withUnsafeMutableBufferPointer { lumaPlane in
                        u.withUnsafeMutableBufferPointer { uPlane in
                            v.withUnsafeMutableBufferPointer { vPlane in
                                I420Scale(sourceY.baseAddress, Int32(source.yStride), sourceU.baseAddress, Int32(source.uvStride),
                                          sourceV.baseAddress, Int32(source.uvStride), Int32(source.width), Int32(source.height),
                                          lumaPlane.baseAddress.map { $0 + lumaOffset }, Int32(yStride),
                                          uPlane.baseAddress.map { $0 + chromaOffset }, Int32(uvStride),
                                          vPlane.baseAddress.map { $0 + chromaOffset }, Int32(uvStride),
                                          Int32(region.width), Int32(region.height), filter)
                            }
                        }
                    }
                }
            }
        }
        guard status == 0 else { throw .drawingFailed("I420Scale returned \(status)") }
    }

    /// Throws unless `region` is non-empty, inside the frame, on even coordinates, and the planes
    /// hold the frame's geometry: what every drawing call checks first.
    public func checkDrawable(_ region: Region) throws(I420FrameError) {
        guard region.width > 0, region.height > 0, region.x >= 0, region.y >= 0,
              region.x <= width - region.width, region.y <= height - region.height
        else { throw .regionOutside(region: region.description, width: width, height: height) }
        guard region.x % 2 == 0, region.y % 2 == 0 else { throw .regionOutside(region: "\(region) (odd origin)", width: width, height: height) }
        try validatePlanes()
    }
}
