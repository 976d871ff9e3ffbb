import Testing

@testable import Recorder

struct WebMCueLogTests {
    typealias Point = WebMCueLog.Point

    @Test("cues come back as appended: forward, backward and extreme deltas")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        var points: [Point] = [
            Point(time: 0, track: 2, position: 0),
            Point(time: Int64.max, track: 255, position: Int64.min),
            Point(time: Int64.min, track: 0, position: Int64.max),
            Point(time: -5, track: 1, position: 3),
        ]
        var time: Int64 = 0
        var position: Int64 = 0
        for _ in 0..<2_000 {
            time += Int64.random(in: -50...5_000, using: &generator)
            position += Int64.random(in: 0...2_000_000, using: &generator)
            points.append(Point(time: time, track: UInt8.random(in: 1...2, using: &generator), position: position))
        }
        var log = WebMCueLog()
        for point in points { log.append(point) }
        #expect(log.count == points.count)
        #expect(log.points == points)
    }

    @Test("a cue a second, ~100 KB of cluster apart, packs into at most 6 bytes (a tuple array held 24 to 48)")
    func packedSize() {
        var log = WebMCueLog()
        for second in 0..<3_600 {
            log.append(Point(time: Int64(second) * 1_000 + Int64(second % 7), track: 2, position: Int64(second) * 100_000 + Int64(second % 13)))
        }
        #expect(log.count == 3_600)
        #expect(log.byteCount <= 6 * 3_600, "\(log.byteCount) bytes for 3,600 cues")
    }

    @Test func emptyLogHasNoPoints() {
        let log = WebMCueLog()
        #expect(log.isEmpty)
        #expect(log.points.isEmpty)
    }
}
