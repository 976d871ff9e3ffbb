/// Turns display names into unique file name stems for one recording.
///
/// A stem holds only `[A-Za-z0-9_-]` (ARCHITECTURE.md): every other character (a grapheme, so
/// "é" or an emoji is one `_`) becomes `_`, an empty name becomes `participant`, and a long one is
/// cut to ``maxLength`` so `<stem>-12.webm` stays well under file system limits. The second
/// participant to get a stem (a namesake, or the same person rejoining) gets `-2`, then `-3`, ….
///
/// Stems are compared case-insensitively, because a recording copied to a case-insensitive file
/// system (macOS, Windows) must not have `Bob.wav` overwrite `bob.wav`. `mix` is reserved for the
/// room mix (mix.wav). A recording continued in its directory reserves the earlier run's stems
/// first (``reserve(_:)``).
public struct NameAllocator: Sendable {
    public static let maxLength = 64
    public static let reserved: Set<String> = ["mix"]

    private var taken: Set<String>

    public init() {
        taken = Self.reserved
    }

    /// Marks `name` as taken, so ``allocate(display:)`` never returns it (nor a case variant of
    /// it): a continued recording's earlier names (``RecordingContinuation``), whose files a
    /// different person must never take over.
    public mutating func reserve(_ name: String) {
        taken.insert(name.lowercased())
    }

    /// A fresh stem for `display`, never returned before by this allocator.
    public mutating func allocate(display: String) -> String {
        let stem = Self.sanitize(display)
        if taken.insert(stem.lowercased()).inserted { return stem }
        var suffix = 2
        while true {
            let candidate = "\(stem)-\(suffix)"
            if taken.insert(candidate.lowercased()).inserted { return candidate }
            suffix += 1
        }
    }

    /// `name` with every character outside `[A-Za-z0-9_-]` replaced by `_`, cut to ``maxLength``;
    /// `fallback` when empty.
    public static func sanitize(_ name: String, fallback: String = "participant") -> String {
        var result = ""
        for character in name.prefix(maxLength) {
            if character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first, isAllowed(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                result.append("_")
            }
        }
        return result.isEmpty ? fallback : result
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
        default: false
        }
    }
}
