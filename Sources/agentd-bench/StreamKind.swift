/// What one pass-through stream carries. The unit is `av`: one audio and one video track
/// of a file; `audio` and `video` runs split that cost by kind.
enum StreamKind: String, Sendable, CaseIterable {
    case av, audio, video

    var hasAudio: Bool { self != .video }
    var hasVideo: Bool { self != .audio }

    static func parseList(_ text: String) throws(BenchError) -> [StreamKind] {
        let kinds = text.split(separator: ",").map { StreamKind(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
        guard !kinds.isEmpty, kinds.allSatisfy({ $0 != nil }) else {
            throw BenchError("--kinds must be a comma-separated list of av, audio, video, got '\(text)'")
        }
        return kinds.compactMap { $0 }
    }
}
