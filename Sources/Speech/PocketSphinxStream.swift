/// The stream state of a ``PocketSphinxRecognizer``: where the decoder is in the audio, whether
/// someone is speaking, and what was last reported. Lives behind the recognizer's lock.
struct PocketSphinxStream: ~Copyable {
    /// Audio goes to the decoder in blocks of at most this many samples (100 ms), so the speech
    /// detector is looked at often enough however large the caller's chunks are.
    static let blockSamples = 1_600
    /// Silence this long (no speech since the utterance began) restarts the utterance.
    static let silenceRestartSamples: Int64 = 5 * Int64(SpeechAudio.sampleRate)

    private let decoder: PocketSphinxDecoder
    private let partialIntervalSamples: Int64
    private let maxUtteranceSamples: Int64
    /// Samples fed since the stream began.
    private var samplesFed: Int64 = 0
    private var utteranceStart: Int64 = 0
    /// Where the speech detector last said speech began; nil outside speech.
    private var speechStart: Int64?
    private var lastPartialCheck: Int64 = 0
    private var lastPartialText = ""
    private var isFinished = false

    init(decoder: PocketSphinxDecoder, configuration: PocketSphinxConfiguration) {
        self.decoder = decoder
        partialIntervalSamples = Int64(configuration.partialIntervalMs * SpeechAudio.samplesPerMillisecond)
        maxUtteranceSamples = Int64(configuration.maxUtteranceMs * SpeechAudio.samplesPerMillisecond)
    }

    mutating func feed(_ samples: [Int16]) throws(SpeechRecognizerError) -> [SpeechResult] {
        guard !isFinished else { throw .finished }
        var results: [SpeechResult] = []
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + Self.blockSamples)
            try samples.withUnsafeBufferPointer { all throws(SpeechRecognizerError) in
                try decoder.process(UnsafeBufferPointer(rebasing: all[offset..<end]))
            }
            samplesFed += Int64(end - offset)
            offset = end
            results += try afterBlock()
        }
        return results
    }

    /// Follows the speech detector after one block: speech onset, a partial, the end.
    private mutating func afterBlock() throws(SpeechRecognizerError) -> [SpeechResult] {
        let inSpeech = decoder.inSpeech
        guard let start = speechStart else {
            if inSpeech {
                speechStart = samplesFed
                lastPartialCheck = samplesFed
            } else if samplesFed - utteranceStart >= Self.silenceRestartSamples {
                try restartUtterance()
            }
            return []
        }
        if !inSpeech || samplesFed - start >= maxUtteranceSamples { return try closeUtterance() }
        guard samplesFed - lastPartialCheck >= partialIntervalSamples else { return [] }
        lastPartialCheck = samplesFed
        let partial = result(isFinal: false)
        guard let partial, partial.text != lastPartialText else { return [] }
        lastPartialText = partial.text
        return [partial]
    }

    mutating func endUtterance() throws(SpeechRecognizerError) -> [SpeechResult] {
        guard !isFinished else { throw .finished }
        return try closeUtterance()
    }

    mutating func finish() throws(SpeechRecognizerError) -> [SpeechResult] {
        guard !isFinished else { return [] }
        isFinished = true
        try decoder.endUtterance()
        return speechStart == nil ? [] : final()
    }

    /// Ends the utterance, returns its final result (none for an empty hypothesis), starts the next.
    private mutating func closeUtterance() throws(SpeechRecognizerError) -> [SpeechResult] {
        try decoder.endUtterance()
        let results = speechStart == nil ? [] : final()
        try decoder.startUtterance()
        reset()
        return results
    }

    private mutating func restartUtterance() throws(SpeechRecognizerError) {
        try decoder.endUtterance()
        try decoder.startUtterance()
        reset()
    }

    private mutating func reset() {
        utteranceStart = samplesFed
        speechStart = nil
        lastPartialText = ""
    }

    private func final() -> [SpeechResult] {
        guard var result = result(isFinal: true) else { return [] }
        result.confidence = decoder.posterior
        return [result]
    }

    /// The hypothesis as a result; nil when it has no words. Fillers (`<s>`, `<sil>`, `[NOISE]`)
    /// are left out, and alternate pronunciations (`read(2)`) named by their word.
    private func result(isFinal: Bool) -> SpeechResult? {
        let words = decoder.segments.compactMap { segment -> SpeechWord? in
            guard let first = segment.word.first, first != "<", first != "[" else { return nil }
            let word = segment.word.split(separator: "(").first.map(String.init) ?? segment.word
            return SpeechWord(text: word, startMs: Self.milliseconds(frame: segment.firstFrame),
                              endMs: Self.milliseconds(frame: Int64(segment.lastFrame) + 1))
        }
        guard let first = words.first, let last = words.last else { return nil }
        let text = words.map(\.text).joined(separator: " ")
        return SpeechResult(text: text, startMs: first.startMs, endMs: last.endMs, isFinal: isFinal, words: words)
    }

    private static func milliseconds(frame: some BinaryInteger) -> Int64 {
        Int64(frame) * 1000 / PocketSphinxDecoder.framesPerSecond
    }
}
