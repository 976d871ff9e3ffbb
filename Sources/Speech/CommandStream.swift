import Foundation

/// The stream state of a ``CommandSpeechRecognizer``: its child, the audio not yet sent, and the
/// first failure (kept, and thrown again by every later call). Lives behind the recognizer's lock.
struct CommandStream: ~Copyable {
    private let child: RecognizerChild
    private let configuration: CommandRecognizerConfiguration
    private let frameSamples: Int
    private var pending: [Int16] = []
    /// Samples sent so far: the next frame's `t_ms`.
    private var samplesSent: Int64 = 0
    private var failure: SpeechRecognizerError?
    private var isFinished = false

    init(child: RecognizerChild, configuration: CommandRecognizerConfiguration) {
        self.child = child
        self.configuration = configuration
        frameSamples = configuration.frameMs * SpeechAudio.samplesPerMillisecond
    }

    /// Runs `body` unless the stream failed before; a failure kills the child and is kept.
    mutating func run(_ body: (inout Self) throws(SpeechRecognizerError) -> [SpeechResult]) throws(SpeechRecognizerError) -> [SpeechResult] {
        if let failure { throw failure }
        do {
            return try body(&self)
        } catch {
            if error != .finished {
                child.kill()
                failure = Self.withTail(error, child.stderrTail)
            }
            throw failure ?? error
        }
    }

    mutating func feed(_ samples: [Int16]) throws(SpeechRecognizerError) -> [SpeechResult] {
        guard !isFinished else { throw .finished }
        pending += samples
        var message: [UInt8] = []
        var start = 0
        while pending.count - start >= frameSamples {
            message += frame(pending[start..<(start + frameSamples)])
            start += frameSamples
        }
        pending.removeFirst(start)
        return try exchange(message, timeoutMs: configuration.responseTimeoutMs, waitForEnd: false)
    }

    mutating func endUtterance() throws(SpeechRecognizerError) -> [SpeechResult] {
        guard !isFinished else { throw .finished }
        var message = pending.isEmpty ? [] : frame(pending[...])
        pending.removeAll()
        message += Array(#"{"type":"end"}"#.utf8) + [UInt8(ascii: "\n")]
        return try exchange(message, timeoutMs: configuration.endTimeoutMs, waitForEnd: true)
    }

    mutating func finish() throws(SpeechRecognizerError) -> [SpeechResult] {
        guard !isFinished else { return [] }
        let results = try endUtterance()
        isFinished = true
        let status = try child.closeInputAndWait(deadline: .now + .milliseconds(configuration.responseTimeoutMs),
                                                 waitedMs: configuration.responseTimeoutMs)
        guard status == 0 else { throw .childExited(status: status, stderrTail: child.stderrTail) }
        return results
    }

    /// One `{"type":"audio","pcm":"<base64 s16le>","t_ms":N}` line.
    private mutating func frame(_ samples: ArraySlice<Int16>) -> [UInt8] {
        let milliseconds = SpeechAudio.milliseconds(ofSample: samplesSent)
        samplesSent += Int64(samples.count)
        let bytes = samples.withUnsafeBytes { raw in Data(raw) }
        return Array(#"{"type":"audio","pcm":""#.utf8) + Array(bytes.base64EncodedString().utf8)
            + Array(#"","t_ms":\#(milliseconds)}"#.utf8) + [UInt8(ascii: "\n")]
    }

    /// Sends `message`, reading the child's lines as they come: results are collected, and with
    /// `waitForEnd` the exchange lasts until the child's `{"type":"end"}`.
    private func exchange(_ message: [UInt8], timeoutMs: Int, waitForEnd: Bool) throws(SpeechRecognizerError) -> [SpeechResult] {
        var results: [SpeechResult] = []
        let maxBytes = configuration.maxLineBytes
        try child.exchange(message, deadline: .now + .milliseconds(timeoutMs), waitedMs: timeoutMs, waitForAnswer: waitForEnd) {
            line throws(SpeechRecognizerError) in
            guard !line.allSatisfy(\.isWhitespace) else { return false }
            switch try CommandRecognizerLine.parse(line, maxBytes: maxBytes) {
            case .result(let result):
                results.append(result)
                return false
            case .endOfUtterance:
                return true
            case .ignored:
                return false
            }
        }
        return results
    }

    /// The child's stderr tail on a protocol error (the parser does not have it).
    private static func withTail(_ error: SpeechRecognizerError, _ tail: String) -> SpeechRecognizerError {
        if case .childProtocol(let reason, let given) = error, given.isEmpty { return .childProtocol(reason: reason, stderrTail: tail) }
        return error
    }
}
