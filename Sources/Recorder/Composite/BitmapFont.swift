import Agent

/// A 5x7 bitmap font of our own for printable ASCII (32...126), drawn into I420 pictures at
/// whole-number scales: the names on the composite's tiles. No font file, no FreeType.
///
/// Each glyph is 7 rows of 5 columns, written below as `#` (ink) and `.` (paper), rows apart by a
/// space, top row first. Glyphs advance 6 columns (one blank between letters). Anything outside
/// printable ASCII draws as `?`.
public enum BitmapFont {
    public static let glyphWidth = 5
    public static let glyphHeight = 7
    public static let advance = 6
    static let firstCharacter: UInt8 = 32

    /// The glyphs of characters 32...126, in order.
    static let designs: [String] = [
        "..... ..... ..... ..... ..... ..... .....",  // space
        "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",  // !
        ".#.#. .#.#. ..... ..... ..... ..... .....",  // "
        ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",  // #
        "..#.. .#### #.#.. .###. ..#.# ####. ..#..",  // $
        "##..# ##..# ...#. ..#.. .#... #..## #..##",  // %
        ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",  // &
        "..#.. ..#.. ..... ..... ..... ..... .....",  // '
        "...#. ..#.. .#... .#... .#... ..#.. ...#.",  // (
        ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",  // )
        "..... ..#.. #.#.# .###. #.#.# ..#.. .....",  // *
        "..... ..#.. ..#.. ##### ..#.. ..#.. .....",  // +
        "..... ..... ..... ..... .##.. ..#.. .#...",  // ,
        "..... ..... ..... ##### ..... ..... .....",  // -
        "..... ..... ..... ..... ..... .##.. .##..",  // .
        "....# ....# ...#. ..#.. .#... #.... #....",  // /
        ".###. #...# #..## #.#.# ##..# #...# .###.",  // 0
        "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",  // 1
        ".###. #...# ....# ...#. ..#.. .#... #####",  // 2
        "##### ...#. ..#.. ...#. ....# #...# .###.",  // 3
        "...#. ..##. .#.#. #..#. ##### ...#. ...#.",  // 4
        "##### #.... ####. ....# ....# #...# .###.",  // 5
        "..##. .#... #.... ####. #...# #...# .###.",  // 6
        "##### ....# ...#. ..#.. .#... .#... .#...",  // 7
        ".###. #...# #...# .###. #...# #...# .###.",  // 8
        ".###. #...# #...# .#### ....# ...#. .##..",  // 9
        "..... .##.. .##.. ..... .##.. .##.. .....",  // :
        "..... .##.. .##.. ..... .##.. ..#.. .#...",  // ;
        "...#. ..#.. .#... #.... .#... ..#.. ...#.",  // <
        "..... ..... ##### ..... ##### ..... .....",  // =
        ".#... ..#.. ...#. ....# ...#. ..#.. .#...",  // >
        ".###. #...# ....# ...#. ..#.. ..... ..#..",  // ?
        ".###. #...# ....# .##.# #.#.# #.#.# .###.",  // @
        ".###. #...# #...# ##### #...# #...# #...#",  // A
        "####. #...# #...# ####. #...# #...# ####.",  // B
        ".###. #...# #.... #.... #.... #...# .###.",  // C
        "###.. #..#. #...# #...# #...# #..#. ###..",  // D
        "##### #.... #.... ####. #.... #.... #####",  // E
        "##### #.... #.... ####. #.... #.... #....",  // F
        ".###. #...# #.... #.### #...# #...# .####",  // G
        "#...# #...# #...# ##### #...# #...# #...#",  // H
        ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",  // I
        "..### ...#. ...#. ...#. ...#. #..#. .##..",  // J
        "#...# #..#. #.#.. ##... #.#.. #..#. #...#",  // K
        "#.... #.... #.... #.... #.... #.... #####",  // L
        "#...# ##.## #.#.# #.#.# #...# #...# #...#",  // M
        "#...# #...# ##..# #.#.# #..## #...# #...#",  // N
        ".###. #...# #...# #...# #...# #...# .###.",  // O
        "####. #...# #...# ####. #.... #.... #....",  // P
        ".###. #...# #...# #...# #.#.# #..#. .##.#",  // Q
        "####. #...# #...# ####. #.#.. #..#. #...#",  // R
        ".#### #.... #.... .###. ....# ....# ####.",  // S
        "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",  // T
        "#...# #...# #...# #...# #...# #...# .###.",  // U
        "#...# #...# #...# #...# #...# .#.#. ..#..",  // V
        "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",  // W
        "#...# #...# .#.#. ..#.. .#.#. #...# #...#",  // X
        "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",  // Y
        "##### ....# ...#. ..#.. .#... #.... #####",  // Z
        ".###. .#... .#... .#... .#... .#... .###.",  // [
        "#.... #.... .#... ..#.. ...#. ....# ....#",  // backslash
        ".###. ...#. ...#. ...#. ...#. ...#. .###.",  // ]
        "..#.. .#.#. #...# ..... ..... ..... .....",  // ^
        "..... ..... ..... ..... ..... ..... #####",  // _
        ".#... ..#.. ..... ..... ..... ..... .....",  // `
        "..... ..... .###. ....# .#### #...# .####",  // a
        "#.... #.... #.##. ##..# #...# #...# ####.",  // b
        "..... ..... .###. #.... #.... #...# .###.",  // c
        "....# ....# .##.# #..## #...# #...# .####",  // d
        "..... ..... .###. #...# ##### #.... .###.",  // e
        "..##. .#..# .#... ###.. .#... .#... .#...",  // f
        "..... .#### #...# #...# .#### ....# .###.",  // g
        "#.... #.... #.##. ##..# #...# #...# #...#",  // h
        "..#.. ..... .##.. ..#.. ..#.. ..#.. .###.",  // i
        "...#. ..... ..##. ...#. ...#. #..#. .##..",  // j
        "#.... #.... #..#. #.#.. ##... #.#.. #..#.",  // k
        ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",  // l
        "..... ..... ##.#. #.#.# #.#.# #...# #...#",  // m
        "..... ..... #.##. ##..# #...# #...# #...#",  // n
        "..... ..... .###. #...# #...# #...# .###.",  // o
        "..... ..... ####. #...# ####. #.... #....",  // p
        "..... ..... .##.# #..## .#### ....# ....#",  // q
        "..... ..... #.##. ##..# #.... #.... #....",  // r
        "..... ..... .###. #.... .###. ....# ####.",  // s
        ".#... .#... ###.. .#... .#... .#..# ..##.",  // t
        "..... ..... #...# #...# #...# #..## .##.#",  // u
        "..... ..... #...# #...# #...# .#.#. ..#..",  // v
        "..... ..... #...# #...# #.#.# #.#.# .#.#.",  // w
        "..... ..... #...# .#.#. ..#.. .#.#. #...#",  // x
        "..... ..... #...# #...# .#### ....# .###.",  // y
        "..... ..... ##### ...#. ..#.. .#... #####",  // z
        "...#. ..#.. ..#.. .#... ..#.. ..#.. ...#.",  // {
        "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",  // |
        ".#... ..#.. ..#.. ...#. ..#.. ..#.. .#...",  // }
        "..... ..... .#... #.#.# ...#. ..... .....",  // ~
    ]

    /// Each glyph's rows as bit masks, bit 4 the leftmost column.
    static let glyphs: [[UInt8]] = designs.map { design in
        design.split(separator: " ").map { row in
            row.reduce(UInt8(0)) { bits, mark in (bits << 1) | (mark == "#" ? 1 : 0) }
        }
    }

    /// The rows of `character`'s glyph (`?` for anything unprintable).
    static func rows(of character: UInt8) -> [UInt8] {
        let index = Int(character) - Int(firstCharacter)
        guard glyphs.indices.contains(index) else { return rows(of: UInt8(ascii: "?")) }
        return glyphs[index]
    }

    /// Whether `character`'s glyph has ink at `column`, `row` (0-based from the top left).
    public static func ink(_ character: Character, column: Int, row: Int) -> Bool {
        guard (0..<glyphWidth).contains(column), (0..<glyphHeight).contains(row) else { return false }
        let code = character.asciiValue ?? UInt8(ascii: "?")
        return rows(of: code)[row] & (1 << (glyphWidth - 1 - column)) != 0
    }

    /// Width in samples of `text` drawn at `scale`.
    public static func width(of text: String, scale: Int) -> Int {
        let count = text.count
        return count == 0 ? 0 : (count * advance - 1) * scale
    }

    /// Draws `text` with its top-left corner at `x`, `y`, each glyph cell `scale` samples a side,
    /// in luma `luma` with neutral chroma (so it reads on any colour). What falls outside the
    /// picture is clipped.
    public static func draw(_ text: String, into frame: inout I420Frame, x: Int, y: Int, scale: Int, luma: UInt8) {
        let scale = max(1, scale)
        var left = x
        for character in text {
            let rows = rows(of: character.asciiValue ?? UInt8(ascii: "?"))
            for (row, bits) in rows.enumerated() where bits != 0 {
                for column in 0..<glyphWidth where bits & (1 << (glyphWidth - 1 - column)) != 0 {
                    paint(&frame, x: left + column * scale, y: y + row * scale, size: scale, luma: luma)
                }
            }
            left += advance * scale
            if left >= frame.width { break }
        }
    }

    /// One square of ink, clipped to the picture; its chroma samples turn neutral.
    private static func paint(_ frame: inout I420Frame, x: Int, y: Int, size: Int, luma: UInt8) {
        let (left, right) = (max(0, x), min(frame.width, x + size))
        let (top, bottom) = (max(0, y), min(frame.height, y + size))
        guard left < right, top < bottom else { return }
        let columns = left..<right, rows = top..<bottom
        for row in rows {
            for column in columns { frame.y[row * frame.yStride + column] = luma }
        }
        for row in (rows.lowerBound / 2)...((rows.upperBound - 1) / 2) {
            for column in (columns.lowerBound / 2)...((columns.upperBound - 1) / 2) {
                frame.u[row * frame.uvStride + column] = 128
                frame.v[row * frame.uvStride + column] = 128
            }
        }
    }

    /// `text` cut to at most `maximumCharacters`, ending in `..` when cut; unprintable characters
    /// become `?` (so a name's width is what is drawn).
    public static func fitting(_ text: String, maximumCharacters: Int) -> String {
        let printable = String(text.map { character -> Character in
            guard let code = character.asciiValue, code >= firstCharacter, code <= 126 else { return "?" }
            return character
        })
        guard printable.count > maximumCharacters else { return printable }
        guard maximumCharacters > 2 else { return String(printable.prefix(max(0, maximumCharacters))) }
        return String(printable.prefix(maximumCharacters - 2)) + ".."
    }
}
