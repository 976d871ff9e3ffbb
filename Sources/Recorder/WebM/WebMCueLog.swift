/// The cue points of a WebM file being written, kept packed until ``WebMWriter/close()`` writes
/// the Cues element.
///
/// A recording cues every cluster that starts with a video keyframe, so an hour of a sender that
/// sends a keyframe a second is 3,600 cues per participant. As `(Int64, UInt8, Int64)` tuples in
/// a growing array that was ~40 KB a minute for a 10-participant room (heaptrack, soak): the
/// largest thing a long recording's heap grew by. Each cue here is its time and position as
/// zigzag varint deltas from the previous cue, plus the track: 4–6 bytes for a typical cue.
struct WebMCueLog {
    struct Point: Equatable {
        var time: Int64
        var track: UInt8
        var position: Int64
    }

    private var bytes: [UInt8] = []
    private var lastTime: Int64 = 0
    private var lastPosition: Int64 = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    /// The packed size, for tests and figures.
    var byteCount: Int { bytes.count }

    mutating func append(_ point: Point) {
        Self.writeVarint(Self.zigzag(point.time &- lastTime), to: &bytes)
        Self.writeVarint(Self.zigzag(point.position &- lastPosition), to: &bytes)
        bytes.append(point.track)
        lastTime = point.time
        lastPosition = point.position
        count += 1
    }

    /// The cues in the order they were appended.
    var points: [Point] {
        var out: [Point] = []
        out.reserveCapacity(count)
        var index = 0
        var time: Int64 = 0
        var position: Int64 = 0
        while index < bytes.count {
            guard let timeDelta = Self.readVarint(bytes, &index), let positionDelta = Self.readVarint(bytes, &index),
                index < bytes.count
            else { break }
            time = time &+ Self.unzigzag(timeDelta)
            position = position &+ Self.unzigzag(positionDelta)
            out.append(Point(time: time, track: bytes[index], position: position))
            index += 1
        }
        return out
    }

    private static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    private static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// LEB128: seven bits a byte, low first, high bit set on all but the last.
    private static func writeVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    /// Reads what ``writeVarint(_:to:)`` wrote (our own bytes: nil only if cut short).
    private static func readVarint(_ bytes: [UInt8], _ index: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count, shift < 64 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
