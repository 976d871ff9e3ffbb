import Agent
import Testing

@testable import Recorder

@Suite struct BitmapFontTests {
    @Test func everyPrintableCharacterHasSevenRowsOfFive() {
        #expect(BitmapFont.designs.count == 95)
        for (index, design) in BitmapFont.designs.enumerated() {
            let rows = design.split(separator: " ")
            #expect(rows.count == 7 && rows.allSatisfy { $0.count == 5 && $0.allSatisfy { "#.".contains($0) } },
                    "glyph \(index + 32): \(design)")
        }
        // Only the space is blank; no two glyphs are the same.
        #expect(BitmapFont.glyphs.filter { $0.allSatisfy { $0 == 0 } }.count == 1)
        #expect(Set(BitmapFont.designs).count == 95)
    }

    @Test func theLetterAReadsAsDrawn() {
        let expected = [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"]
        for (row, line) in expected.enumerated() {
            let drawn = String((0..<5).map { BitmapFont.ink("A", column: $0, row: row) ? "#" : "." })
            #expect(drawn == line, "row \(row)")
        }
        #expect(!BitmapFont.ink("A", column: 5, row: 0))
        // Outside ASCII draws as '?'.
        #expect((0..<7).allSatisfy { row in (0..<5).allSatisfy { BitmapFont.ink("é", column: $0, row: row) == BitmapFont.ink("?", column: $0, row: row) } })
    }

    @Test func drawingPutsInkOnTheGlyphsSquaresOnly() throws {
        var frame = try I420Frame(width: 40, height: 20, luma: 40, chroma: 160)
        BitmapFont.draw("AI", into: &frame, x: 2, y: 2, scale: 2, luma: 235)
        // 'A' row 0 is .###.: samples x 4...9 of rows 2...3 inked, x 2...3 not.
        #expect((4..<10).allSatisfy { frame.luma(x: $0, y: 2) == 235 && frame.luma(x: $0, y: 3) == 235 })
        #expect(frame.luma(x: 2, y: 2) == 40 && frame.luma(x: 3, y: 3) == 40)
        // Row 3 is #####: x 2...11 at y 8...9.
        #expect((2..<12).allSatisfy { frame.luma(x: $0, y: 8) == 235 })
        // 'I' starts 6 columns on (12 samples): its row 0 .###. covers x 16...21.
        #expect((16..<22).allSatisfy { frame.luma(x: $0, y: 2) == 235 })
        #expect(frame.luma(x: 14, y: 2) == 40)
        // Ink turns chroma neutral; paper keeps it.
        #expect(frame.chromaU(x: 2, y: 1) == 128 && frame.chromaV(x: 2, y: 1) == 128)
        #expect(frame.chromaU(x: 0, y: 0) == 160)
        let inked = frame.y.filter { $0 == 235 }.count
        let expected = "AI".reduce(0) { total, character in
            total + (0..<7).reduce(0) { sum, row in sum + (0..<5).filter { BitmapFont.ink(character, column: $0, row: row) }.count }
        }
        #expect(inked == expected * 4)
    }

    @Test func clipsAtTheEdgesAndMeasuresWidth() throws {
        var frame = try I420Frame(width: 8, height: 8)
        BitmapFont.draw("WWW", into: &frame, x: -2, y: 2, scale: 3, luma: 200)
        #expect(frame.y.contains(200))
        #expect(BitmapFont.width(of: "abc", scale: 2) == (3 * 6 - 1) * 2)
        #expect(BitmapFont.width(of: "", scale: 4) == 0)
        #expect(BitmapFont.fitting("Alexandra", maximumCharacters: 6) == "Alex..")
        #expect(BitmapFont.fitting("Zoë", maximumCharacters: 6) == "Zo?")
        #expect(BitmapFont.fitting("Bob", maximumCharacters: 2) == "Bo")
    }
}
