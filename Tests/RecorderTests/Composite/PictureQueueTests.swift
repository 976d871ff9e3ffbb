import Agent
import Testing

@testable import Recorder

@Suite struct PictureQueueTests {
    /// A tiny picture whose luma says which source frame it is.
    static func picture(_ number: Int) throws -> I420Frame {
        try I420Frame(width: 2, height: 2, luma: UInt8(number % 256))
    }

    @Test func gridTimesRoundToWholeMilliseconds() {
        let grid = FrameGrid(framesPerSecond: 15)
        #expect((0..<5).map { grid.time(ofFrame: $0) } == [0, 67, 133, 200, 267])
        #expect(grid.firstFrame(atOrAfter: 0) == 0)
        #expect(grid.firstFrame(atOrAfter: -50) == 0)
        #expect(grid.firstFrame(atOrAfter: 67) == 1)
        #expect(grid.firstFrame(atOrAfter: 68) == 2)
        #expect(grid.firstFrame(atOrAfter: 1_000_001) == 15_001)
        #expect(FrameGrid(framesPerSecond: 30).time(ofFrame: 1) == 33)
    }

    /// A 30 fps source (pictures 33.3 ms apart) shown at 15 fps: each output frame shows the
    /// picture nearest its time, never more than 17 ms away.
    @Test func eachFrameShowsTheNearestPictureWithinHalfASourceFrame() throws {
        let grid = FrameGrid(framesPerSecond: 15)
        var queue = PictureQueue(grid: grid)
        var shown: [(frameMs: Int64, pictureMs: Int64)] = []
        var frame: Int64 = 0
        for number in 0..<300 {
            let ms = Int64((Double(number) * 1000 / 30 + 5).rounded())  // a phase of 5 ms against the grid
            queue.append(try Self.picture(number), atMs: ms)
            // Render what is decided: frames up to the newest picture's time.
            while grid.time(ofFrame: frame) <= ms {
                let chosen = queue.picture(forFrame: frame, maximumAgeMs: 2000)
                let picture = try #require(chosen)
                shown.append((grid.time(ofFrame: frame), picture.ms))
                frame += 1
            }
            #expect(queue.pictures.count <= 3, "pictures no output frame will show are let go")
        }
        #expect(shown.count > 140)
        let worst = shown.map { abs($0.frameMs - $0.pictureMs) }.max() ?? 0
        #expect(worst <= 17, "worst distance \(worst) ms")
        // Nearest, not latest: some frames show a picture from after their time.
        #expect(shown.contains { $0.pictureMs > $0.frameMs })
    }

    @Test func aPictureAheadIsNotShownEarlyAndAnOldOneGoesStale() throws {
        let grid = FrameGrid(framesPerSecond: 15)
        var queue = PictureQueue(grid: grid)
        queue.append(try Self.picture(1), atMs: 1000)
        // 1 s ahead of frame 0; frame 14 (933 ms) is 67 ms before it, frame 15 is at it.
        let shown = [0, 14, 15, 44, 46].map { queue.picture(forFrame: $0, maximumAgeMs: 2000)?.ms }
        // Held while no newer one came, until more than 2 s old (frame 46 is at 3067 ms).
        #expect(shown == [nil, nil, 1000, 1000, nil])
    }

    @Test func outOfOrderAndDuplicateTimes() throws {
        var queue = PictureQueue(grid: FrameGrid(framesPerSecond: 15))
        queue.append(try Self.picture(1), atMs: 100)
        queue.append(try Self.picture(2), atMs: 50)
        queue.append(try Self.picture(3), atMs: 100)
        #expect(queue.pictures.map(\.ms) == [100])
        #expect(queue.pictures.first?.frame.luma(x: 0, y: 0) == 3, "the later picture of one time wins")
        #expect(queue.skipped == 1)
    }
}
