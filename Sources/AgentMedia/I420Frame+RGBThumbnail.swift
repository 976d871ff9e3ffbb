extension I420Frame {
    /// The picture scaled down to fit `maxWidth` x `maxHeight` (aspect kept, never scaled up) and
    /// converted to RGB: a recording report's thumbnail of a participant.
    ///
    /// Each output pixel is the box average of the source pixels it covers, so a downscale by 8
    /// does not alias a test pattern into noise. Colours are BT.601 in video range (Y 16-235,
    /// U/V 16-240), which is what VP8, VP9 and H.264 senders use unless they say otherwise.
    public func rgbThumbnail(maxWidth: Int, maxHeight: Int) -> RGBImage {
        let scale = min(1, Double(max(1, maxWidth)) / Double(width), Double(max(1, maxHeight)) / Double(height))
        let outWidth = max(1, min(width, Int((Double(width) * scale).rounded())))
        let outHeight = max(1, min(height, Int((Double(height) * scale).rounded())))
        var pixels = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        for row in 0..<outHeight {
            let top = row * height / outHeight, bottom = max(top + 1, (row + 1) * height / outHeight)
            for column in 0..<outWidth {
                let left = column * width / outWidth, right = max(left + 1, (column + 1) * width / outWidth)
                let (luma, blue, red) = average(columns: left..<right, rows: top..<bottom)
                let offset = (row * outWidth + column) * 3
                let yScaled = 1.164 * (luma - 16)
                pixels[offset] = Self.byte(yScaled + 1.596 * (red - 128))
                pixels[offset + 1] = Self.byte(yScaled - 0.813 * (red - 128) - 0.391 * (blue - 128))
                pixels[offset + 2] = Self.byte(yScaled + 2.018 * (blue - 128))
            }
        }
        // The size is within this frame's (already checked) and the buffer is sized to it.
        return RGBImage(checkedWidth: outWidth, height: outHeight, pixels: pixels)
    }

    /// Mean Y, U and V over a block of luma positions (chroma at half resolution).
    private func average(columns: Range<Int>, rows: Range<Int>) -> (Double, Double, Double) {
        var lumaSum = 0, blueSum = 0, redSum = 0
        for row in rows {
            for column in columns {
                lumaSum += Int(luma(x: column, y: row))
                blueSum += Int(chromaU(x: column / 2, y: row / 2))
                redSum += Int(chromaV(x: column / 2, y: row / 2))
            }
        }
        let count = Double(columns.count * rows.count)
        return (Double(lumaSum) / count, Double(blueSum) / count, Double(redSum) / count)
    }

    private static func byte(_ value: Double) -> UInt8 {
        UInt8(min(255, max(0, value.rounded())))
    }
}
