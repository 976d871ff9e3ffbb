import Agent

/// A participant's speech, found by ``VoiceActivityDetector`` in their timeline WAV.
public struct SpeechScan: Sendable, Equatable {
    public var intervals: [TimelineSpan]
    public var speakingMs: Int64
    /// The interval list was cut short (the total still counts every interval).
    public var truncated: Bool

    /// Frames read per call: 100 ms at 48 kHz, whatever the header claims about the file.
    static let chunkFrames = 4800

    /// Reads the WAV at `path` in chunks (memory holds one chunk whatever the file's size or
    /// header) for at most `maxMs` of audio, mixing channels down to one.
    public init(wavPath path: String, maxMs: Int64, settings: VoiceActivityDetector.Settings = .init()) throws(SoundFileError) {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        let rate = reader.info.sampleRate
        let channels = reader.info.channels
        var detector = VoiceActivityDetector(sampleRate: rate, settings: settings)
        let (limit, overflow) = max(0, maxMs).multipliedReportingOverflow(by: Int64(rate))
        var framesLeft = overflow ? Int64.max : limit / 1000
        var mono = [Int16](repeating: 0, count: Self.chunkFrames)
        while framesLeft > 0 {
            let chunk = try reader.read(maxFrames: Int(min(Int64(Self.chunkFrames), framesLeft)))
            if chunk.isEmpty { break }
            let frames = chunk.count / channels
            if channels == 1 {
                detector.process(chunk)
            } else {
                for frame in 0..<frames {
                    var sum = 0
                    for channel in 0..<channels { sum += Int(chunk[frame * channels + channel]) }
                    mono[frame] = Int16(sum / channels)
                }
                detector.process(mono[0..<frames])
            }
            framesLeft -= Int64(frames)
        }
        detector.finish()
        intervals = detector.intervals
        speakingMs = detector.speakingMs
        truncated = detector.truncated
    }

    /// No speech yet: what the parts of a segmented recording are added to.
    static let silent = SpeechScan(intervals: [], speakingMs: 0, truncated: false)

    init(intervals: [TimelineSpan], speakingMs: Int64, truncated: Bool) {
        self.intervals = intervals
        self.speakingMs = speakingMs
        self.truncated = truncated
    }

    /// This scan followed by `next`, a part whose time 0 lies at `atMs` on the timeline. An
    /// utterance cut by the part boundary (one interval ending where the next begins) is one.
    func continued(by next: SpeechScan, atMs offset: Int64) -> SpeechScan {
        var joined = self
        let shifted = next.intervals.map { span in
            TimelineSpan(startMs: Self.add(span.startMs, offset), endMs: Self.add(span.endMs, offset))
        }
        for span in shifted {
            if let last = joined.intervals.last, span.startMs <= Self.add(last.endMs, Self.boundarySlackMs) {
                joined.intervals[joined.intervals.count - 1].endMs = max(last.endMs, span.endMs)
            } else if joined.intervals.count < VoiceActivityDetector.Settings().maxIntervals {
                joined.intervals.append(span)
            } else {
                joined.truncated = true
            }
        }
        joined.speakingMs = Self.add(joined.speakingMs, next.speakingMs)
        joined.truncated = joined.truncated || next.truncated
        return joined
    }

    /// How close an interval of the next part must start to the last one's end to be its
    /// continuation: one VAD frame and a little.
    static let boundarySlackMs: Int64 = 20

    private static func add(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }
}
