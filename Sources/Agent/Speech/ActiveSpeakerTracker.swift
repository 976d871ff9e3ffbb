import Foundation

/// Who is speaking, from audio level with hysteresis so the answer does not flicker: the one
/// active speaker (``update(atMs:)``: who holds the room composite's large tile) and everyone
/// talking now, loudest first (``ranking(atMs:)``: a channel's
/// ``ChannelEvent/activeSpeakersChanged(_:)``).
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
/// The ranking lists those whose current spurt has lasted ``rankAfterMs`` (so a click does not
/// enter it) and goes on (pauses up to ``pauseToleranceMs``), ordered by their recent level (a
/// mean square averaged over ``levelTimeConstantMs``): someone who goes quiet falls behind one
/// who talks within about 70 ms, well before their spurt ends. Two who talk at once trade
/// places only when one is ``reorderMarginDB`` louder, so the order holds steady.
///
/// Time is in milliseconds of one clock the caller chooses: media time for the compositor
/// (block positions, never the wall clock, so tests feed it faster than real time), a monotonic
/// clock for a channel, whose tracks' media times are not comparable. A plain value: its owner
/// serializes access.
public struct ActiveSpeakerTracker: Sendable, Equatable {
    public var voiceThreshold: Double
    public var switchAfterMs: Int64
    public var pauseToleranceMs: Int64
    public var rankAfterMs: Int64 = 60
    public var levelTimeConstantMs: Double = 100
    public var reorderMarginDB: Double = 6

    private struct Spurt: Sendable, Equatable {
        var startMs: Int64
        var lastVoicedMs: Int64
    }

    private var spurts: [String: Spurt] = [:]
    /// Each one's recent mean square and when it was last fed.
    private var recent: [String: Recent] = [:]

    private struct Recent: Sendable, Equatable {
        var level: Double
        var atMs: Int64
    }
    private var lastRanking: [String] = []
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

    /// A block of `name`'s audio from `atMs`, `durationMs` long, at mean square `level`; voiced
    /// when `voiced` says so (a voice activity detector's call), or else when the level reaches
    /// ``voiceThreshold``.
    public mutating func add(level: Double, atMs: Int64, durationMs: Int64, from name: String, voiced: Bool? = nil) {
        let weight = 1 - exp(-Double(max(1, durationMs)) / max(1, levelTimeConstantMs))
        let previous = recent[name]?.level ?? 0
        recent[name] = Recent(level: previous + (level - previous) * weight, atMs: atMs)
        guard voiced ?? (level >= voiceThreshold) else { return }
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
        recent[name] = nil
        lastRanking.removeAll { $0 == name }
        if speaker == name { speaker = nil }
    }

    /// Everyone talking at `nowMs`, loudest first (see the type's notes); the order of the last
    /// call is kept where no one is ``reorderMarginDB`` louder than the one before them.
    public mutating func ranking(atMs nowMs: Int64) -> [String] {
        let talking = spurts.filter { name, spurt in
            isTalking(name, atMs: nowMs) && spurt.lastVoicedMs - spurt.startMs >= rankAfterMs
        }
        var order = lastRanking.filter { talking[$0] != nil }
        order += talking.keys.filter { !order.contains($0) }.sorted { (level(of: $0, atMs: nowMs), $1) > (level(of: $1, atMs: nowMs), $0) }
        let margin = pow(10, reorderMarginDB / 10)
        // Insertion by level, moving someone up only past those they beat by the margin.
        var index = 1
        while index < order.count {
            var position = index
            let loudness = level(of: order[index], atMs: nowMs)
            while position > 0, loudness > level(of: order[position - 1], atMs: nowMs) * (isVoicing(order[position - 1], atMs: nowMs) ? margin : 1) {
                order.swapAt(position, position - 1)
                position -= 1
            }
            index += 1
        }
        lastRanking = order
        return order
    }

    /// Voiced within the last ``levelTimeConstantMs``: talking, not pausing. Only such a one
    /// keeps their place against a louder one by the margin; one who paused is passed as soon as
    /// someone else is louder.
    private func isVoicing(_ name: String, atMs nowMs: Int64) -> Bool {
        guard let spurt = spurts[name] else { return false }
        return Double(nowMs - spurt.lastVoicedMs) <= levelTimeConstantMs
    }

    /// `name`'s recent mean square at `nowMs`, decayed over the time since they were last fed
    /// (a track that stopped sending is as quiet as one sending silence).
    private func level(of name: String, atMs nowMs: Int64) -> Double {
        guard let entry = recent[name] else { return 0 }
        let idle = Double(max(0, nowMs - entry.atMs))
        return entry.level * exp(-idle / max(1, levelTimeConstantMs))
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
