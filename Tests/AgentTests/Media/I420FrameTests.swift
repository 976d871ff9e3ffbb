import Foundation
import Testing

@testable import Agent
@testable import AgentMedia

@Suite struct I420FrameTests {
    @Test func oddSizesRoundChromaUp() throws {
        let frame = try I420Frame(width: 5, height: 3)
        #expect(frame.chromaWidth == 3)
        #expect(frame.chromaHeight == 2)
        #expect(frame.y.count == 15)
        #expect(frame.u.count == 6)
        #expect(frame.v.count == 6)
        #expect(frame.packedPlanes().count == 15 + 12)
    }

    @Test func invalidGeometryIsRejected() {
        #expect(throws: I420FrameError.invalidDimensions(width: 0, height: 10)) { try I420Frame(width: 0, height: 10) }
        #expect(throws: I420FrameError.strideTooSmall(plane: "Y", stride: 3, width: 4)) {
            try I420Frame(width: 4, height: 2, yStride: 3, uvStride: 2, y: [UInt8](repeating: 0, count: 8),
                          u: [0, 0, 0, 0], v: [0, 0, 0, 0])
        }
        #expect(throws: I420FrameError.planeTooSmall(plane: "V", needed: 4, got: 3)) {
            try I420Frame(width: 4, height: 4, yStride: 4, uvStride: 2, y: [UInt8](repeating: 0, count: 16),
                          u: [0, 0, 0, 0], v: [0, 0, 0])
        }
    }

    @Test func paddedStridesCompareByVisibleSamples() throws {
        let packed = try I420Frame.testPattern(width: 6, height: 4, frameIndex: 3)
        var y: [UInt8] = [], u: [UInt8] = [], v: [UInt8] = []
        for row in 0..<4 { y += packed.y[(row * 6)..<(row * 6 + 6)] + [9, 9] }
        for row in 0..<2 {
            u += packed.u[(row * 3)..<(row * 3 + 3)] + [7]
            v += packed.v[(row * 3)..<(row * 3 + 3)] + [7]
        }
        let padded = try I420Frame(width: 6, height: 4, yStride: 8, uvStride: 4, y: y, u: u, v: v)
        #expect(padded.psnr(against: packed) == .infinity)
        #expect(padded.packed() == packed)
        #expect(padded.luma(x: 5, y: 3) == packed.luma(x: 5, y: 3))
    }

    @Test func psnrMeasuresDifference() throws {
        let a = try I420Frame.testPattern(width: 32, height: 32, frameIndex: 0)
        var b = a
        b.y[0] &+= 10
        let score = try #require(b.psnr(against: a))
        // One luma sample off by 10 among 32*32*1.5 samples.
        let expected = 10 * log10(255.0 * 255.0 / (100.0 / 1536.0))
        #expect(abs(score - expected) < 1e-9)
        #expect(a.psnr(against: try I420Frame(width: 16, height: 16)) == nil)
        #expect(try I420Frame.testPattern(width: 32, height: 32, frameIndex: 1) != a)
    }
}
