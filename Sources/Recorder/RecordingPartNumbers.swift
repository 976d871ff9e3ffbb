import Foundation

/// The part numbers a continued recording's files start from (``RecordingContinuation``): for
/// each file name, one above the highest part of that name already in the directory or in its
/// manifest, so nothing written before is ever opened again.
///
///     on disk / in manifest.json          first(for:)
///     alice.webm, alice.part2.mkv    →    "alice.webm" → 3   (webm and mkv parts count together:
///                                                             a codec change switches container)
///     alice.wav                      →    "alice.wav"  → 2
///     mix.wav, mix.part2.wav         →    "mix.wav"    → 3
///     (nothing named data.*)         →    "data.jsonl" → 1   (a new recording's own name)
///
/// Names are the ``RecordingSegments/partPath(_:number:)`` ones: `<stem>[.part<N>].<ext>`. Stems
/// are compared case-insensitively, as ``NameAllocator`` compares them, so a copy on a
/// case-insensitive file system cannot collide either. A part number beyond ``maximumPart``
/// (only a hand-made name) does not count: ours never get near it.
public struct RecordingPartNumbers: Sendable, Equatable {
    public static let maximumPart = 1_000_000

    private struct Key: Hashable, Sendable {
        var stem: String
        var family: String
    }

    private var highest: [Key: Int] = [:]

    /// Every part 1: a recording in a new directory.
    public init() {}

    /// The highest part of every name among `fileNames` (paths: only the last component counts).
    public init(fileNames: some Sequence<String>) {
        for fileName in fileNames {
            let (key, number) = Self.split(fileName)
            highest[key] = max(highest[key] ?? 0, number)
        }
    }

    /// The part number for this run's first file of `fileName` (`alice.webm`, `mix.wav`): 1 when
    /// the name is new, else one above the highest part found.
    public func first(for fileName: String) -> Int {
        let (key, _) = Self.split(fileName)
        return (highest[key] ?? 0) + 1
    }

    /// `alice.part3.webm` → (alice, webm) part 3; `alice.webm` → part 1.
    private static func split(_ path: String) -> (Key, Int) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        var stem = Substring(name)
        var family = ""
        if let dot = name.lastIndex(of: "."), dot > name.startIndex {
            stem = name[..<dot]
            family = name[name.index(after: dot)...].lowercased()
        }
        if family == "mkv" { family = "webm" }
        var number = 1
        if let marker = stem.range(of: ".part", options: [.backwards, .caseInsensitive]) {
            let digits = stem[marker.upperBound...]
            if !digits.isEmpty, digits.count <= 7, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
               let value = Int(digits), value >= 2, value <= maximumPart
            {
                number = value
                stem = stem[..<marker.lowerBound]
            }
        }
        return (Key(stem: stem.lowercased(), family: family), number)
    }
}
