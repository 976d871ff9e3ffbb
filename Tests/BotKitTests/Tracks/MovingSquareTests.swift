import Agent
import Testing

@testable import BotKit

@Suite struct MovingSquareTests {
    @Test func theSquareIsBrightOnDarkAndWhereItSays() throws {
        let square = try MovingSquare(width: 64, height: 48, side: 10, stepX: 4, stepY: 2)
        let frame = square.frame(at: 3)
        #expect(square.position(at: 3) == (12, 6))
        #expect(frame.luma(x: 12, y: 6) == MovingSquare.squareLuma)
        #expect(frame.luma(x: 21, y: 15) == MovingSquare.squareLuma)
        #expect(frame.luma(x: 22, y: 15) == MovingSquare.backgroundLuma)
        #expect(frame.luma(x: 11, y: 6) == MovingSquare.backgroundLuma)
        #expect(frame.y.filter { $0 == MovingSquare.squareLuma }.count == 100)
        #expect(frame.u.allSatisfy { $0 == 128 } && frame.v.allSatisfy { $0 == 128 })
        let found = try #require(MovingSquare.locateSquare(in: frame))
        #expect(found == square.center(at: 3))
        #expect(found == (16.5, 10.5))
    }

    @Test func itMovesAndBouncesOffTheEdges() throws {
        let square = try MovingSquare(width: 30, height: 20, side: 10, stepX: 4, stepY: 2)
        // Across: 20 pixels of travel, so 0, 4, ... 20 then back.
        #expect((0..<8).map { square.position(at: $0).x } == [0, 4, 8, 12, 16, 20, 16, 12])
        #expect((0..<8).map { square.position(at: $0).y } == [0, 2, 4, 6, 8, 10, 8, 6])
        #expect((0..<40).allSatisfy { square.position(at: $0) != square.position(at: $0 + 1) })
        #expect(square.frame(at: 0) != square.frame(at: 1))
    }

    @Test(arguments: [(1, 1), (2, 2), (3, 5), (321, 241), (1280, 720)])
    func anySizeWorks(_ width: Int, _ height: Int) throws {
        let square = try MovingSquare(width: width, height: height)
        for index in [0, 1, 7, 1000, -3] {
            let frame = square.frame(at: index)
            #expect(frame.width == width && frame.height == height)
            try frame.validatePlanes()
            let corner = square.position(at: index)
            #expect(corner.x >= 0 && corner.x + square.side <= width)
            #expect(corner.y >= 0 && corner.y + square.side <= height)
            #expect(MovingSquare.locateSquare(in: frame) != nil)
        }
    }

    @Test func badSizesAreRefused() {
        #expect(throws: I420FrameError.invalidDimensions(width: 0, height: 10)) {
            _ = try MovingSquare(width: 0, height: 10)
        }
    }

    @Test func aDarkFrameHasNoSquare() throws {
        #expect(MovingSquare.locateSquare(in: try I420Frame(width: 16, height: 16)) == nil)
    }
}
