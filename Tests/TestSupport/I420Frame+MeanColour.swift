import AgentMedia

extension I420Frame {
    /// A picture of one colour, with its own U and V (``I420Frame/init(width:height:luma:chroma:)``
    /// gives both chroma planes one value).
    public static func solid(width: Int, height: Int, y luma: UInt8, u chromaU: UInt8, v chromaV: UInt8) throws -> I420Frame {
        var frame = try I420Frame(width: width, height: height, luma: luma, chroma: chromaU)
        frame.v = [UInt8](repeating: chromaV, count: frame.v.count)
        return frame
    }

    /// Mean Y, U and V over `region` (chroma over the chroma samples it covers): how tests and
    /// checks read a tile's colour.
    public func meanColour(in region: Region) throws(I420FrameError) -> (y: Double, u: Double, v: Double) {
        try checkDrawable(region)
        var lumaSum = 0, uSum = 0, vSum = 0
        for row in region.y..<(region.y + region.height) {
            for column in region.x..<(region.x + region.width) { lumaSum += Int(y[row * yStride + column]) }
        }
        let chromaRows = (region.y / 2)..<((region.y + region.height + 1) / 2)
        let chromaColumns = (region.x / 2)..<((region.x + region.width + 1) / 2)
        for row in chromaRows {
            for column in chromaColumns {
                uSum += Int(u[row * uvStride + column])
                vSum += Int(v[row * uvStride + column])
            }
        }
        let chromaCount = Double(chromaRows.count * chromaColumns.count)
        return (Double(lumaSum) / Double(region.area), Double(uSum) / chromaCount, Double(vSum) / chromaCount)
    }
}

extension I420Frame {
    /// The pictures of a raw yuv420p stream (ffmpeg's `-f rawvideo -pix_fmt yuv420p`), rows packed;
    /// a partial picture at the end is left out.
    public static func frames(rawYUV bytes: [UInt8], width: Int, height: Int) throws -> [I420Frame] {
        let lumaCount = width * height, chromaCount = ((width + 1) / 2) * ((height + 1) / 2)
        let frameBytes = lumaCount + 2 * chromaCount
        guard frameBytes > 0 else { return [] }
        return try (0..<(bytes.count / frameBytes)).map { index in
            let base = index * frameBytes
            return try I420Frame(width: width, height: height, yStride: width, uvStride: (width + 1) / 2,
                                 y: Array(bytes[base..<(base + lumaCount)]),
                                 u: Array(bytes[(base + lumaCount)..<(base + lumaCount + chromaCount)]),
                                 v: Array(bytes[(base + lumaCount + chromaCount)..<(base + frameBytes)]))
        }
    }
}

extension I420Frame.Region {
    /// The middle half of the region (a quarter of its area), on even samples: where a tile's
    /// colour is read, clear of its edges and its name label.
    public var middleHalf: I420Frame.Region {
        func even(_ value: Int) -> Int { value - (value & 1) }
        return .init(x: even(x + width / 4), y: even(y + height / 4), width: even(width / 2), height: even(height / 2))
    }
}
