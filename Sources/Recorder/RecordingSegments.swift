/// `--segment SEC`: the recording's timeline cut into parts of ``lengthMs``, so a long recording
/// is a series of files each playable on its own (ARCHITECTURE.md, "Recording directory").
///
/// Part 1 keeps the file's own name, later parts insert `.partN` before the extension, the
/// names that a codec change already gives (`Alice.webm`, `Alice.part2.webm`, `mix.part3.wav`).
/// Where each file is cut:
///
///     timeline   0 ─────────── S ─────────── 2S ───────── end
///     WAV        |  part 1     |  part 2     |  part 3    |    exact, sample for sample
///     WebM       |  part 1      ▲K| part 2     ▲K| part 3 |    at the first video keyframe
///                                                             at or after the boundary (the
///                                                             recorder asks for one there);
///                                                             audio-only at the first packet
///     .opus      |  part 1      | part 2      | part 3    |    at the first packet at or after it
///
/// The manifest lists every part with its `start_ms` and `end_ms`: each part starts where the
/// one before ended.
public struct RecordingSegments: Sendable, Equatable {
    /// The shortest segment: 1 s (a keyframe every second is already a lot to ask of a sender).
    public static let minimumSeconds: Double = 1
    /// The longest: a day.
    public static let maximumSeconds: Double = 86_400

    public let lengthMs: Int64

    /// Nil unless `seconds` is within ``minimumSeconds``...``maximumSeconds`` (finite).
    public init?(seconds: Double) {
        guard seconds.isFinite, seconds >= Self.minimumSeconds, seconds <= Self.maximumSeconds else { return nil }
        lengthMs = Int64((seconds * 1000).rounded())
    }

    public static let rule = "a number of seconds from 1 to 86400 (a day)"

    /// Samples per part at 48 kHz.
    public var lengthSamples: Int64 { lengthMs * 48 }

    /// The 0-based segment holding `ms` (before t=0: the first).
    public func index(ofMs ms: Int64) -> Int64 {
        max(0, ms) / lengthMs
    }

    /// Where segment `index` starts.
    public func startMs(ofIndex index: Int64) -> Int64 {
        index * lengthMs
    }

    /// `Alice.wav`, part 3 → `Alice.part3.wav`; part 1 is the name itself. A path's directory
    /// stays; a name without an extension gets `.partN` at its end.
    public static func partPath(_ path: String, number: Int) -> String {
        guard number > 1 else { return path }
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[slash...].lastIndex(of: "."), dot > slash else { return path + ".part\(number)" }
        return String(path[..<dot]) + ".part\(number)" + String(path[dot...])
    }
}
