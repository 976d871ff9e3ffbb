extension I420Frame {
    /// A deterministic moving picture for tests and bots, a function of `frameIndex` only.
    ///
    /// It has what a codec test needs: a smooth diagonal gradient that scrolls (motion search),
    /// a sharp-edged checkerboard square that travels across it (edges and texture), and chroma
    /// ramps (so a codec that drops colour fails a PSNR check). Any size from 1x1 up works.
    public static func testPattern(width: Int, height: Int, frameIndex: Int) throws(I420FrameError) -> I420Frame {
        var frame = try I420Frame(width: width, height: height)
        let boxSize = max(8, min(width, height) / 5)
        let travelX = max(1, width - boxSize), travelY = max(1, height - boxSize)
        let boxX = (frameIndex * 5) % travelX, boxY = (frameIndex * 3) % travelY
        for row in 0..<height {
            for column in 0..<width {
                let phase = (column + row / 2 + frameIndex * 3) % 256
                let triangle = phase < 128 ? phase : 255 - phase
                var value = 40 + triangle
                let insideX = column - boxX, insideY = row - boxY
                if insideX >= 0, insideX < boxSize, insideY >= 0, insideY < boxSize {
                    value = ((insideX / 8 + insideY / 8) % 2 == 0) ? 220 : 30
                }
                frame.y[row * frame.yStride + column] = UInt8(value)
            }
        }
        let chromaWidth = frame.chromaWidth, chromaHeight = frame.chromaHeight
        for row in 0..<chromaHeight {
            for column in 0..<chromaWidth {
                let index = row * frame.uvStride + column
                frame.u[index] = UInt8(96 + column * 64 / chromaWidth)
                frame.v[index] = UInt8(160 - row * 64 / chromaHeight + (frameIndex % 16))
            }
        }
        return frame
    }
}
