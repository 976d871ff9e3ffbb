/// Where the samples put their sync marks: a white picture and the onset of a loud beep at the
/// same media instant, once a second from 0.5 s on (0.5, 1.5, ... 4.5 s), so every mark has
/// ordinary picture and tone before it and a test can find all five onsets.
///
/// Both land exactly on a frame boundary: at 30 fps mark `k` is video frame `15 + 30 k`, and at
/// 48 kHz it is audio sample `24000 + 48000 k` (the first sample of Opus frame `25 + 50 k`). A
/// test that plays the WebM and finds beeps (a step to a loud 1 kHz) and white frames (mean luma
/// near 235) can read A/V sync from how far apart they came out.
enum SyncMark {
    static let periodMilliseconds = 1000
    static let firstMilliseconds = 500
    static let beepFrequency = 1000.0
    static let beepMilliseconds = 100
    /// Loud enough that a 1 ms envelope of the beep is well over twice the tone's.
    static let beepAmplitude = 0.8
    /// Video-range white (BT.601 Y' 235).
    static let whiteLuma: UInt8 = 235

    /// Whether the picture shown at `frameIndex` (at `framesPerSecond`) is a mark's white frame.
    static func isMark(frameIndex: Int, framesPerSecond: Int) -> Bool {
        let milliseconds = frameIndex * 1000
        guard milliseconds % framesPerSecond == 0 else { return false }
        return isMark(milliseconds: milliseconds / framesPerSecond)
    }

    /// How far into a beep `sampleIndex` (48 kHz) is, or nil outside every beep.
    static func beepOffset(sampleIndex: Int, sampleRate: Int) -> Int? {
        let first = firstMilliseconds * sampleRate / 1000
        let period = periodMilliseconds * sampleRate / 1000
        guard sampleIndex >= first else { return nil }
        let offset = (sampleIndex - first) % period
        return offset < beepMilliseconds * sampleRate / 1000 ? offset : nil
    }

    private static func isMark(milliseconds: Int) -> Bool {
        milliseconds >= firstMilliseconds && (milliseconds - firstMilliseconds) % periodMilliseconds == 0
    }
}
