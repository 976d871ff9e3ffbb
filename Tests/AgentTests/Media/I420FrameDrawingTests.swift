import Testing
import TestSupport

@testable import AgentMedia

/// libyuv's rectangles and scaling through ``I420Frame``'s drawing calls: the right samples
/// change, the others keep their value, and a bad region is an error, not a write.
@Suite struct I420FrameDrawingTests {
    @Test func fillChangesOnlyTheRegion() throws {
        var frame = try I420Frame(width: 64, height: 48)
        let region = I420Frame.Region(x: 10, y: 8, width: 20, height: 12)
        try frame.fill(region, luma: 200, u: 60, v: 220)
        #expect(frame.luma(x: 10, y: 8) == 200)
        #expect(frame.luma(x: 29, y: 19) == 200)
        #expect(frame.luma(x: 30, y: 19) == 16, "one past the right edge")
        #expect(frame.luma(x: 10, y: 20) == 16, "one below the bottom edge")
        #expect(frame.chromaU(x: 5, y: 4) == 60)
        #expect(frame.chromaV(x: 14, y: 9) == 220)
        #expect(frame.chromaU(x: 15, y: 4) == 128)
        let mean = try frame.meanColour(in: region)
        #expect(mean.y == 200 && mean.u == 60 && mean.v == 220)
    }

    @Test func drawScalesAPictureIntoARegion() throws {
        var canvas = try I420Frame(width: 320, height: 180)
        let picture = try I420Frame.solid(width: 640, height: 480, y: 150, u: 70, v: 200)
        let region = I420Frame.Region(x: 100, y: 40, width: 120, height: 90)
        try canvas.draw(picture, scaledInto: region)
        let inside = try canvas.meanColour(in: region)
        #expect(abs(inside.y - 150) <= 1 && abs(inside.u - 70) <= 1 && abs(inside.v - 200) <= 1, "box filtering rounds: \(inside)")
        let left = try canvas.meanColour(in: .init(x: 0, y: 0, width: 100, height: 180))
        #expect(left.y == 16 && left.u == 128 && left.v == 128, "outside the region: \(left)")
        let below = try canvas.meanColour(in: .init(x: 100, y: 130, width: 120, height: 50))
        #expect(below.y == 16, "\(below)")
    }

    @Test func badRegionsAreRefused() throws {
        var frame = try I420Frame(width: 64, height: 48)
        let before = frame
        #expect(throws: I420FrameError.self) { try frame.fill(.init(x: 60, y: 0, width: 8, height: 8), luma: 1, u: 1, v: 1) }
        #expect(throws: I420FrameError.self) { try frame.fill(.init(x: 3, y: 0, width: 8, height: 8), luma: 1, u: 1, v: 1) }
        #expect(throws: I420FrameError.self) { try frame.fill(.init(x: 0, y: 0, width: 0, height: 8), luma: 1, u: 1, v: 1) }
        #expect(throws: I420FrameError.self) {
            try frame.draw(I420Frame(width: 8, height: 8), scaledInto: .init(x: 0, y: 42, width: 8, height: 8))
        }
        #expect(frame == before)
    }
}
