/// Audio or video: the kind of a track, a stream, a codec or a recorded file's track.
///
/// The raw values are the SDP media names (`m=audio`, `m=video`) and the manifest's `kind`
/// strings, which are a contract (ARCHITECTURE.md): do not change them.
public enum MediaKind: String, Codable, Sendable, Hashable, CaseIterable {
    case audio
    case video
}
