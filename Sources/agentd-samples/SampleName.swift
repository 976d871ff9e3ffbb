/// The files `agentd-samples` can write, by the name they get in the output directory.
enum SampleName: String, CaseIterable, Sendable {
    /// 5 s of the moving test pattern, 320x240 at 30 fps, VP8 in IVF.
    case patternIVF = "pattern-vp8.ivf"
    /// The same pictures plus a 440 Hz tone in Opus, in WebM, with a sync mark every second.
    case patternWebM = "pattern.webm"
    /// 5 s of a 440 Hz tone in Ogg/Opus.
    case toneOpus = "tone-440.opus"

    var needsVideo: Bool { self != .toneOpus }
}
