import Agent

/// Where each participant's tile lies on the composite's canvas: pure arithmetic on the layout,
/// the canvas size, the participants present (in join order) and the active speaker.
///
/// **grid**: equal cells in `columns` x `rows`, with the column count that shows the largest
/// picture of the canvas's own aspect (webcams and the canvas are mostly 16:9 or 4:3), more
/// columns on a tie, so two people sit side by side; a last row with fewer cells is centred.
///
///     +------+------+      n = 3 on 16:9: 2 x 2, the last row centred
///     |  A   |  B   |
///     +---+--+---+--+
///         |  C   |
///         +------+
///
/// **speaker**: the speaker (or, before anybody spoke, the first to join) large on top, the
/// others in a strip a quarter of the canvas high, their cells at most 16:9, centred.
///
/// Cells are separated by a small even gap and sit on even samples with even sizes, as I420's
/// half-size chroma needs. A cell is at least ``minimumCell`` a side: participants beyond what
/// fits (a crowd on a tiny canvas) get no tile, the latest joiners first.
public struct TileLayout: Sendable, Equatable {
    public struct Tile: Sendable, Equatable {
        public var name: String
        public var region: I420Frame.Region
        /// The large tile of the speaker layout.
        public var isSpeaker: Bool
    }

    public static let minimumCell = 16

    public let tiles: [Tile]

    public init(layout: CompositeLayout, canvasWidth width: Int, canvasHeight height: Int, participants: [String], speaker: String?) {
        let gap = Self.gap(width: width, height: height)
        switch layout {
        case .grid:
            tiles = Self.grid(width: width, height: height, gap: gap, names: participants)
        case .speaker:
            tiles = Self.speaker(width: width, height: height, gap: gap, names: participants, speaker: speaker)
        }
    }

    public func tile(named name: String) -> Tile? { tiles.first { $0.name == name } }

    /// 2 samples up to 360 lines, then about 1/180 of the shorter side (4 at 720p, 12 at 2160p).
    static func gap(width: Int, height: Int) -> Int {
        max(2, evenDown(min(width, height) / 180))
    }

    static func evenDown(_ value: Int) -> Int { value - (value & 1) }

    // MARK: grid

    private static func grid(width: Int, height: Int, gap: Int, names: [String]) -> [Tile] {
        var count = names.count
        while count > 0 {
            if let shape = bestGrid(count: count, width: width, height: height, gap: gap) {
                return place(names: Array(names.prefix(count)), shape: shape, width: width, height: height, gap: gap)
            }
            count -= 1
        }
        return []
    }

    private struct GridShape {
        var columns: Int
        var rows: Int
        var cellWidth: Int
        var cellHeight: Int
    }

    /// The shape whose cells show the largest canvas-aspect picture; nil when no shape has cells
    /// of ``minimumCell``.
    private static func bestGrid(count: Int, width: Int, height: Int, gap: Int) -> GridShape? {
        var best: (shape: GridShape, scale: Double)?
        for columns in 1...count {
            let rows = (count + columns - 1) / columns
            let cellWidth = evenDown((width - gap * (columns + 1)) / columns)
            let cellHeight = evenDown((height - gap * (rows + 1)) / rows)
            guard cellWidth >= minimumCell, cellHeight >= minimumCell else { continue }
            let scale = min(Double(cellWidth) / Double(width), Double(cellHeight) / Double(height))
            if best.map({ scale >= $0.scale }) ?? true {
                best = (GridShape(columns: columns, rows: rows, cellWidth: cellWidth, cellHeight: cellHeight), scale)
            }
        }
        return best?.shape
    }

    private static func place(names: [String], shape: GridShape, width: Int, height: Int, gap: Int) -> [Tile] {
        let gridHeight = shape.rows * shape.cellHeight + (shape.rows - 1) * gap
        let top = evenDown((height - gridHeight) / 2)
        var tiles: [Tile] = []
        for (index, name) in names.enumerated() {
            let row = index / shape.columns, column = index % shape.columns
            let inRow = min(shape.columns, names.count - row * shape.columns)
            let rowWidth = inRow * shape.cellWidth + (inRow - 1) * gap
            let left = evenDown((width - rowWidth) / 2)
            let region = I420Frame.Region(x: left + column * (shape.cellWidth + gap), y: top + row * (shape.cellHeight + gap),
                                          width: shape.cellWidth, height: shape.cellHeight)
            tiles.append(Tile(name: name, region: region, isSpeaker: false))
        }
        return tiles
    }

    // MARK: speaker

    private static func speaker(width: Int, height: Int, gap: Int, names: [String], speaker: String?) -> [Tile] {
        guard let first = names.first else { return [] }
        let large = speaker.flatMap { names.contains($0) ? $0 : nil } ?? first
        let others = names.filter { $0 != large }
        let fullRegion = I420Frame.Region(x: gap, y: gap, width: evenDown(width - 2 * gap), height: evenDown(height - 2 * gap))
        guard !others.isEmpty else { return [Tile(name: large, region: fullRegion, isSpeaker: true)] }
        let stripHeight = evenDown((height - 3 * gap) / 4)
        let largeHeight = evenDown(height - 3 * gap - stripHeight)
        guard stripHeight >= minimumCell, largeHeight >= minimumCell else {
            return [Tile(name: large, region: fullRegion, isSpeaker: true)]
        }
        var tiles = [Tile(name: large, region: .init(x: gap, y: gap, width: fullRegion.width, height: largeHeight), isSpeaker: true)]
        let fitting = max(0, (width - gap) / (minimumCell + gap))
        let shown = Array(others.prefix(fitting))
        guard !shown.isEmpty else { return tiles }
        let cellWidth = evenDown(min((width - gap * (shown.count + 1)) / shown.count, stripHeight * 16 / 9))
        let stripWidth = shown.count * cellWidth + (shown.count - 1) * gap
        let left = evenDown((width - stripWidth) / 2)
        let top = gap + largeHeight + gap
        for (index, name) in shown.enumerated() {
            tiles.append(Tile(name: name, region: .init(x: left + index * (cellWidth + gap), y: top, width: cellWidth, height: stripHeight),
                              isSpeaker: false))
        }
        return tiles
    }

    // MARK: pictures in cells

    /// The largest region of a `width` x `height` picture's aspect inside `cell`, centred, on
    /// even samples with even sizes (at least 2x2).
    public static func fit(width: Int, height: Int, in cell: I420Frame.Region) -> I420Frame.Region {
        guard width > 0, height > 0 else { return cell }
        var fittedWidth = cell.width
        var fittedHeight = cell.width * height / width
        if fittedHeight > cell.height {
            fittedHeight = cell.height
            fittedWidth = cell.height * width / height
        }
        fittedWidth = max(2, evenDown(min(fittedWidth, cell.width)))
        fittedHeight = max(2, evenDown(min(fittedHeight, cell.height)))
        return .init(x: cell.x + evenDown((cell.width - fittedWidth) / 2), y: cell.y + evenDown((cell.height - fittedHeight) / 2),
                     width: fittedWidth, height: fittedHeight)
    }
}
