import Agent

/// A bright square gliding over a dark background and bouncing off the edges: the simplest
/// picture in which motion is plain to see and to measure.
///
/// ```
///   +--------------------------+   frame 0: square at the top-left corner
///   |  ##  -->                 |   each frame: stepX pixels across, stepY down,
///   |  ##                      |   bouncing back at the edges
///   |                          |
///   +--------------------------+
/// ```
///
/// Where ``I420Frame/testPattern(width:height:frameIndex:)`` is built to be hard for a codec
/// (gradients, texture, colour), this is built to be easy to check: a receiver can find the
/// square with ``locateSquare(in:)`` and compare it with ``center(at:)``, so a test or a demo
/// can tell that video moves, and in the right order, after encoding and decoding.
public struct MovingSquare: Sendable {
    /// Video-range white and black (ITU-R BT.601: Y from 16 to 235).
    public static let squareLuma: UInt8 = 235
    public static let backgroundLuma: UInt8 = 16

    public let width: Int
    public let height: Int
    /// Side of the square in pixels, at most the smaller dimension.
    public let side: Int
    /// Pixels moved per frame, across and down.
    public let stepX: Int
    public let stepY: Int
    private let background: I420Frame

    /// - Parameter side: defaults to a quarter of the smaller dimension (at least one pixel).
    public init(width: Int, height: Int, side: Int? = nil, stepX: Int = 4, stepY: Int = 2) throws(I420FrameError) {
        background = try I420Frame(width: width, height: height, luma: Self.backgroundLuma)
        self.width = width
        self.height = height
        self.side = min(max(1, side ?? min(width, height) / 4), min(width, height))
        self.stepX = stepX
        self.stepY = stepY
    }

    /// Top-left corner of the square in frame `frameIndex`.
    public func position(at frameIndex: Int) -> (x: Int, y: Int) {
        (Self.bounce(frameIndex &* stepX, travel: width - side), Self.bounce(frameIndex &* stepY, travel: height - side))
    }

    /// Centre of the square in frame `frameIndex`, in pixels (what ``locateSquare(in:)`` finds).
    public func center(at frameIndex: Int) -> (x: Double, y: Double) {
        let corner = position(at: frameIndex)
        return (Double(corner.x) + Double(side - 1) / 2, Double(corner.y) + Double(side - 1) / 2)
    }

    /// Frame `frameIndex`: the background with the square painted in luma (chroma stays grey).
    public func frame(at frameIndex: Int) -> I420Frame {
        var frame = background
        let corner = position(at: frameIndex), stride = frame.yStride
        frame.y.withUnsafeMutableBufferPointer { luma in
            for row in corner.y..<(corner.y + side) {
                let start = row * stride + corner.x
                luma[start..<(start + side)].update(repeating: Self.squareLuma)
            }
        }
        return frame
    }

    /// The centre of the bright pixels (luma at or above `threshold`) in `frame`, or nil if
    /// there are none: where the square is after a codec has been through it.
    public static func locateSquare(in frame: I420Frame, threshold: UInt8 = 128) -> (x: Double, y: Double)? {
        var count = 0, sumX = 0, sumY = 0
        frame.y.withUnsafeBufferPointer { luma in
            for row in 0..<frame.height {
                let rowStart = row * frame.yStride
                for column in 0..<frame.width where luma[rowStart + column] >= threshold {
                    count += 1
                    sumX += column
                    sumY += row
                }
            }
        }
        guard count > 0 else { return nil }
        return (Double(sumX) / Double(count), Double(sumY) / Double(count))
    }

    /// Position after moving `distance` pixels along `0...travel`, reflecting at both ends.
    private static func bounce(_ distance: Int, travel: Int) -> Int {
        guard travel > 0 else { return 0 }
        let period = 2 * travel
        let phase = ((distance % period) + period) % period
        return phase <= travel ? phase : period - phase
    }
}
