/// An uncompressed picture as 8-bit RGB, rows packed top to bottom, three bytes a pixel: what
/// ``PNGEncoder`` writes, made from a decoded ``I420Frame`` (``I420Frame/rgbThumbnail(maxWidth:maxHeight:)``).
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes: R, G, B of each pixel, row after row.
    public let pixels: [UInt8]

    /// Checks that `pixels` holds exactly one RGB triple per pixel of a size I420 allows.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(I420FrameError) {
        guard (1...I420Frame.maxDimension).contains(width), (1...I420Frame.maxDimension).contains(height) else {
            throw .invalidDimensions(width: width, height: height)
        }
        guard pixels.count == width * height * 3 else {
            throw .planeTooSmall(plane: "RGB", needed: width * height * 3, got: pixels.count)
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// For callers that derived the size from a frame already checked and sized `pixels` to it.
    init(checkedWidth width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The R, G, B of the pixel at column `x`, row `y` (both in range).
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}
