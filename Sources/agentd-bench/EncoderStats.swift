import Foundation

/// The encode worker's closing `STATS {json}` line, summed over its tracks: whether the
/// encoders kept up (frames encoded per second and per track, frames skipped or dropped).
struct EncoderStats: Sendable {
    let tracks: Int
    let seconds: Double
    let encoded: Int
    let skipped: Int
    let dropped: Int
    let keyframes: Int
    let bytes: Int

    init?(stdoutLines: [String]) {
        guard let line = stdoutLines.last(where: { $0.hasPrefix("STATS ") }),
            let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any],
            let list = object["tracks"] as? [[String: Any]], !list.isEmpty
        else { return nil }
        func sum(_ key: String) -> Int { list.reduce(0) { $0 + ((($1[key] as? NSNumber)?.intValue) ?? 0) } }
        tracks = list.count
        seconds = (object["seconds"] as? NSNumber)?.doubleValue ?? 0
        encoded = sum("encoded")
        skipped = sum("skipped")
        dropped = sum("droppedForRate") + sum("droppedByEncoder")
        keyframes = sum("keyframes")
        bytes = sum("bytes")
    }

    var line: String {
        let perTrack = Double(tracks) * max(seconds, 0.001)
        return String(
            format: "encoder (whole run, %.0f s): %.1f frames/s encoded per track, %d skipped by the pushers, %d dropped, %d keyframes, %.0f kb/s per track",
            seconds, Double(encoded) / perTrack, skipped, dropped, keyframes, Double(bytes) * 8 / 1000 / perTrack)
    }
}
