/// Who holds the speaker layout's large tile: the active speaker from audio level, with
/// hysteresis so the tile does not flicker between people.
///
/// A 20 ms block is *voiced* when its mean square is at least ``voiceThreshold`` (−50 dBFS by
/// default: far below speech, far above a silent or DTX stream). Voiced blocks make up a talk
/// spurt; a pause of up to ``pauseToleranceMs`` does not end it. Then:
/// - the speaker keeps the tile while their spurt goes on (so through any pause shorter than
///   ``pauseToleranceMs``, 500 ms: a 300 ms breath never moves the tile);
/// - when the speaker's spurt has ended, or nobody holds the tile, the one whose current spurt
///   has lasted at least ``switchAfterMs`` (500 ms) takes it, the longest spurt first. Someone who
///   starts talking into a silent room therefore holds the tile 500 ms later, and someone who
///   talks after the speaker stopped holds it at most `pauseToleranceMs` after the speaker's
///   last voiced block (within 1 s of their own start).
///
/// Time is media time in milliseconds (block positions), never the wall clock, so tests feed it
/// faster than real time. A plain value: the compositor's queue owns it.
public struct ActiveSpeakerTracker: Sendable, Equatable {
    public var voiceThreshold: Double
    public var switchAfterMs: Int64
    public var pauseToleranceMs: Int64

    private struct Spurt: Sendable, Equatable {
        var startMs: Int64
        var lastVoicedMs: Int64
    }

    private var spurts: [String: Spurt] = [:]
    public private(set) var speaker: String?

    /// −50 dBFS as a mean square of Int16 samples: (32768 · 10^(−50/20))².
    public static let defaultVoiceThreshold = 10_737.0

    public init(voiceThreshold: Double = defaultVoiceThreshold, switchAfterMs: Int64 = 500, pauseToleranceMs: Int64 = 500) {
        self.voiceThreshold = voiceThreshold
        self.switchAfterMs = switchAfterMs
        self.pauseToleranceMs = pauseToleranceMs
    }

    /// The mean square of `pcm`, the level ``add(level:atMs:durationMs:from:)`` takes.
    public static func level(of pcm: [Int16]) -> Double {
        guard !pcm.isEmpty else { return 0 }
        var sum = 0.0
        for sample in pcm {
            let value = Double(sample)
            sum += value * value
        }
        return sum / Double(pcm.count)
    }

    /// A block of `name`'s audio from `atMs`, `durationMs` long, at mean square `level`.
    public mutating func add(level: Double, atMs: Int64, durationMs: Int64, from name: String) {
        guard level >= voiceThreshold else { return }
        let end = atMs + max(1, durationMs)
        if var spurt = spurts[name], atMs - spurt.lastVoicedMs <= pauseToleranceMs {
            spurt.startMs = min(spurt.startMs, atMs)
            spurt.lastVoicedMs = max(spurt.lastVoicedMs, end)
            spurts[name] = spurt
        } else {
            spurts[name] = Spurt(startMs: atMs, lastVoicedMs: end)
        }
    }

    /// `name` left: they hold nothing any more.
    public mutating func remove(_ name: String) {
        spurts[name] = nil
        if speaker == name { speaker = nil }
    }

    /// Re-evaluates at media time `nowMs` and returns who holds the tile (nil before anybody
    /// spoke long enough).
    @discardableResult
    public mutating func update(atMs nowMs: Int64) -> String? {
        if let speaker, isTalking(speaker, atMs: nowMs) { return speaker }
        let candidates = spurts.filter { name, spurt in
            name != speaker && isTalking(name, atMs: nowMs) && min(nowMs, spurt.lastVoicedMs) - spurt.startMs >= switchAfterMs
        }
        if let next = candidates.min(by: { ($0.value.startMs, $0.key) < ($1.value.startMs, $1.key) }) {
            speaker = next.key
        }
        return speaker
    }

    private func isTalking(_ name: String, atMs nowMs: Int64) -> Bool {
        guard let spurt = spurts[name] else { return false }
        return nowMs - spurt.lastVoicedMs <= pauseToleranceMs && spurt.startMs <= nowMs
    }
}
