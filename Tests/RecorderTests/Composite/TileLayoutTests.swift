import Agent
import Testing

@testable import Recorder

@Suite struct TileLayoutTests {
    static func grid(_ count: Int, width: Int = 1280, height: Int = 720) -> TileLayout {
        TileLayout(layout: .grid, canvasWidth: width, canvasHeight: height, participants: (0..<count).map { "p\($0)" }, speaker: nil)
    }

    /// Inside the canvas, even, apart from each other.
    static func checkGeometry(_ layout: TileLayout, width: Int, height: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for tile in layout.tiles {
            let region = tile.region
            #expect(region.x >= 0 && region.y >= 0 && region.x + region.width <= width && region.y + region.height <= height,
                    "\(tile.name) \(region) outside \(width)x\(height)", sourceLocation: sourceLocation)
            #expect(region.x % 2 == 0 && region.y % 2 == 0 && region.width % 2 == 0 && region.height % 2 == 0,
                    "\(tile.name) \(region) not even", sourceLocation: sourceLocation)
            #expect(region.width >= TileLayout.minimumCell && region.height >= TileLayout.minimumCell, sourceLocation: sourceLocation)
        }
        for (index, a) in layout.tiles.enumerated() {
            for b in layout.tiles[(index + 1)...] {
                let apart = a.region.x + a.region.width <= b.region.x || b.region.x + b.region.width <= a.region.x
                    || a.region.y + a.region.height <= b.region.y || b.region.y + b.region.height <= a.region.y
                #expect(apart, "\(a.name) \(a.region) overlaps \(b.name) \(b.region)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func oneParticipantFillsTheCanvasBarTheGap() {
        let layout = Self.grid(1)
        #expect(layout.tiles.map(\.region) == [.init(x: 4, y: 4, width: 1272, height: 712)])
    }

    @Test func twoSitSideBySideThreeMakeTwoRowsWithTheLastCentred() {
        let two = Self.grid(2)
        #expect(two.tiles.map(\.region) == [.init(x: 4, y: 4, width: 634, height: 712), .init(x: 642, y: 4, width: 634, height: 712)])
        let three = Self.grid(3)
        #expect(three.tiles.map(\.region.width) == [634, 634, 634])
        #expect(three.tiles.map(\.region.height) == [354, 354, 354])
        #expect(three.tiles[0].region.y == three.tiles[1].region.y)
        #expect(three.tiles[2].region.y == three.tiles[0].region.y + 354 + 4)
        // The last row's one tile sits in the middle.
        let middle = three.tiles[2].region.x + three.tiles[2].region.width / 2
        #expect(abs(middle - 640) <= 2, "centre at \(middle)")
    }

    @Test func everyCountUpToTwentyFitsAndTilesStayApart() {
        for count in 1...20 {
            let layout = Self.grid(count)
            #expect(layout.tiles.count == count)
            Self.checkGeometry(layout, width: 1280, height: 720)
        }
        // 4 makes 2 x 2; 9 makes 3 x 3.
        #expect(Set(Self.grid(4).tiles.map(\.region.width)) == [634])
        #expect(Set(Self.grid(9).tiles.map(\.region.x)).count == 3)
    }

    @Test func aCrowdOnATinyCanvasShowsWhoFits() {
        let layout = Self.grid(50, width: 64, height: 64)
        #expect(layout.tiles.count < 50)
        #expect(layout.tiles.map(\.name) == (0..<layout.tiles.count).map { "p\($0)" }, "the first to join keep their tiles")
        Self.checkGeometry(layout, width: 64, height: 64)
        #expect(Self.grid(0).tiles.isEmpty)
    }

    @Test func speakerIsLargeAndTheOthersShareTheStrip() {
        let names = ["ann", "bob", "cy", "dee"]
        let layout = TileLayout(layout: .speaker, canvasWidth: 1280, canvasHeight: 720, participants: names, speaker: "cy")
        Self.checkGeometry(layout, width: 1280, height: 720)
        let large = layout.tiles.first
        #expect(large?.name == "cy")
        #expect(large?.isSpeaker == true)
        #expect(large?.region == .init(x: 4, y: 4, width: 1272, height: 532))
        let strip = layout.tiles.dropFirst()
        #expect(strip.map(\.name) == ["ann", "bob", "dee"])
        #expect(strip.allSatisfy { !$0.isSpeaker && $0.region.y == 540 && $0.region.height == 176 })
        // At most 16:9 each, centred.
        #expect(strip.allSatisfy { $0.region.width * 9 <= $0.region.height * 16 })
        let span = (strip.first!.region.x, strip.last!.region.x + strip.last!.region.width)
        #expect(abs((span.0 + span.1) / 2 - 640) <= 2)
    }

    @Test func withoutASpeakerTheFirstToJoinIsLargeAndAloneIsFull() {
        let layout = TileLayout(layout: .speaker, canvasWidth: 1280, canvasHeight: 720, participants: ["ann", "bob"], speaker: "gone")
        #expect(layout.tiles.map(\.name) == ["ann", "bob"])
        let alone = TileLayout(layout: .speaker, canvasWidth: 1280, canvasHeight: 720, participants: ["ann"], speaker: nil)
        #expect(alone.tiles.map(\.region) == [.init(x: 4, y: 4, width: 1272, height: 712)])
    }

    @Test func fitKeepsTheAspectCentredAndEven() {
        let cell = I420Frame.Region(x: 4, y: 4, width: 634, height: 712)
        // 4:3 into a tall cell: full width, centred vertically.
        #expect(TileLayout.fit(width: 640, height: 480, in: cell) == .init(x: 4, y: 122, width: 634, height: 474))
        // 16:9 into a wide cell: full height.
        let wide = I420Frame.Region(x: 0, y: 0, width: 1000, height: 200)
        #expect(TileLayout.fit(width: 1280, height: 720, in: wide) == .init(x: 322, y: 0, width: 354, height: 200))
        #expect(TileLayout.fit(width: 0, height: 0, in: wide) == wide)
    }
}
