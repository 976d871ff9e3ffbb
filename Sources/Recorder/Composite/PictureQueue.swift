import Agent

/// One participant's decoded pictures waiting to be shown, in time order, and the rule that
/// picks the one an output frame shows: the **nearest in time** (a tie goes to the earlier).
///
/// Output frame k is shown at t_k; the picture chosen is the one closest to t_k, before or after
/// (the compositor waits for the first picture after t_k: that is the lookahead). So every
/// picture shown is on screen within half the source's frame spacing of its own time (16.7 ms
/// for a 30 fps source, 33 ms for a 15 fps one), whatever the output rate, and on average at it:
/// the audio, placed at its own samples, is not offset from it. What an output rate below the
/// source's costs is pictures never shown, not lateness: at 15 fps a 30 fps source's pictures
/// are shown about every other one, so a one-picture flash shows (within 16.7 ms of its time) at
/// about every other output-grid phase, and a longer event's first appearance is quantised to
/// the 66.7 ms grid like any 15 fps video's. Always picking the latest picture at or before t_k
/// instead would show each one up to a whole source frame late (33 ms at 30 fps), half that on
/// average. A picture ahead of t_k by more
/// than half an output frame is not shown early: before a participant's first picture their
/// tile shows their name.
///
/// Memory stays bounded by the output rate, not the source's: when a picture arrives, the one
/// before it is dropped if no later output time would pick it (``append(_:atMs:)``), and never
/// more than ``capacity`` wait.
struct PictureQueue {
    struct Picture {
        var ms: Int64
        var frame: I420Frame
    }

    let grid: FrameGrid
    let capacity: Int
    private(set) var pictures: [Picture] = []
    /// The first output frame not rendered yet; earlier times never ask again.
    private(set) var nextFrame: Int64 = 0
    /// Pictures dropped because no output frame would show them, or over ``capacity``.
    private(set) var skipped: Int64 = 0

    init(grid: FrameGrid, capacity: Int = 32) {
        self.grid = grid
        self.capacity = max(2, capacity)
    }

    var newestMs: Int64? { pictures.last?.ms }

    /// Adds a picture shown at `ms`. One older than the newest (out of order) is dropped; one at
    /// the newest's time replaces it.
    mutating func append(_ frame: I420Frame, atMs ms: Int64) {
        if let newest = pictures.last?.ms {
            guard ms >= newest else {
                skipped += 1
                return
            }
            if ms == newest {
                pictures[pictures.count - 1] = Picture(ms: ms, frame: frame)
                return
            }
        }
        pictures.append(Picture(ms: ms, frame: frame))
        if pictures.count >= 3, !isNeeded(index: pictures.count - 2) {
            pictures.remove(at: pictures.count - 2)
            skipped += 1
        }
        if pictures.count > capacity {
            pictures.removeFirst(pictures.count - capacity)
            skipped += 1
        }
    }

    /// Whether some output frame from ``nextFrame`` on picks the picture at `index`, which has
    /// a neighbour on both sides: t with 2t > earlier + this (a tie goes to the earlier) and
    /// 2t ≤ this + later.
    private func isNeeded(index: Int) -> Bool {
        let earlier = pictures[index - 1].ms, this = pictures[index].ms, later = pictures[index + 1].ms
        // The first frame strictly after the midpoint: at or after ⌊(earlier + this) / 2⌋ + 1.
        let frame = max(nextFrame, grid.firstFrame(atOrAfter: (earlier + this) / 2 + 1))
        return 2 * grid.time(ofFrame: frame) <= this + later
    }

    /// The picture output frame `index` shows, or nil when there is none yet
    /// (or only one more than `maximumAgeMs` old). Pictures before it are let go: later frames
    /// never pick them.
    mutating func picture(forFrame index: Int64, maximumAgeMs: Int64) -> Picture? {
        nextFrame = max(nextFrame, index + 1)
        let time = grid.time(ofFrame: index)
        guard let firstAfter = pictures.firstIndex(where: { $0.ms > time }) ?? (pictures.isEmpty ? nil : pictures.count) else {
            return nil
        }
        var chosen: Int
        if firstAfter == 0 {
            // Everything is ahead of t_k: show it only if it is nearer to this frame than the next.
            let halfFrame = (grid.time(ofFrame: index + 1) - time) / 2
            guard pictures[0].ms - time <= halfFrame else { return nil }
            chosen = 0
        } else if firstAfter < pictures.count, pictures[firstAfter].ms - time < time - pictures[firstAfter - 1].ms {
            chosen = firstAfter
        } else {
            chosen = firstAfter - 1
        }
        if chosen > 0 {
            pictures.removeFirst(chosen)
            chosen = 0
        }
        let picture = pictures[chosen]
        return time - picture.ms <= maximumAgeMs ? picture : nil
    }
}
