import Agent

/// Where a participant's turns begin and end, from their decoded audio (16 kHz mono): a value
/// that takes 10 ms frames and returns what happened, so it is tested without a room.
///
/// A turn begins when the ``VoiceActivityDetector`` says someone speaks (a voiced stretch of at
/// least its minimum, 40 ms): that is the moment a talking bot stops (barge-in). It ends once
/// `endOfTurnMs` have passed since the last voiced frame; pauses shorter than that, between
/// words and sentences, stay inside the turn.
struct TurnDetector: Sendable {
    enum Event: Sendable, Equatable {
        /// Speech began; `atMs` is where the detector heard it (the frame that made it speech).
        case speechStarted(atMs: Int64)
        /// The turn is over: speech ran from `startMs` to `lastVoicedMs` (the end of its last
        /// voiced frame), and `endOfTurnMs` of silence followed.
        case turnEnded(startMs: Int64, lastVoicedMs: Int64)
    }

    static let frameSamples = 160

    let endOfTurnMs: Int64
    private var detector: VoiceActivityDetector
    private var turn: (startMs: Int64, lastVoicedMs: Int64)?

    init(endOfTurnMs: Int, settings: VoiceActivityDetector.Settings = .init()) {
        self.endOfTurnMs = Int64(max(0, endOfTurnMs))
        detector = VoiceActivityDetector(sampleRate: 16_000, settings: settings)
    }

    /// True between a turn's start and its end.
    var inTurn: Bool { turn != nil }
    /// The last frame taken was voiced.
    var lastFrameVoiced: Bool { detector.lastFrameVoiced }

    /// Takes one 10 ms frame (``frameSamples`` samples; other lengths work, the events then come
    /// at their ends).
    mutating func process(_ frame: ArraySlice<Int16>) -> Event? {
        detector.process(frame)
        let now = detector.processedMs
        let voiced = detector.lastFrameVoiced
        if var current = turn {
            if voiced { current.lastVoicedMs = now }
            turn = current
            guard now - current.lastVoicedMs >= endOfTurnMs else { return nil }
            turn = nil
            return .turnEnded(startMs: current.startMs, lastVoicedMs: current.lastVoicedMs)
        }
        guard voiced, detector.isSpeaking else { return nil }
        turn = (now, now)
        return .speechStarted(atMs: now)
    }
}
