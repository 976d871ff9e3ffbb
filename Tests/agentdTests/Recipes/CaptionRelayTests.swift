import Foundation
import Speech
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import agentd

/// ``CaptionRelay`` with a recognizer whose answers are known: partials then a final per
/// utterance, in order, as caption messages; a repeated partial is not sent twice; the last
/// utterance goes out at stop; a failing recognizer is counted and logged.
@Suite(.offThePool) struct CaptionRelayTests {
    /// Says "word N" as a partial after every 10 frames of audio, and the whole as final after 30.
    final class CountingRecognizer: SpeechRecognizer, @unchecked Sendable {
        private var frames = 0
        private var utterance = 0
        let failAt: Int

        init(failAt: Int = .max) { self.failAt = failAt }

        func feed(_ samples: [Int16]) throws(SpeechRecognizerError) -> [SpeechResult] {
            frames += 1
            if frames >= failAt { throw .engineFailed(operation: "feed", status: -3) }
            let start = Int64(utterance * 30 * 20)
            if frames % 30 == 0 {
                utterance += 1
                return [SpeechResult(text: "utterance \(utterance)", startMs: start, endMs: start + 600, isFinal: true)]
            }
            // The same partial twice in a row (frames 10 and 11): sent once.
            if frames % 30 == 10 || frames % 30 == 11 { return [SpeechResult(text: "utter", startMs: start, endMs: start + 200, isFinal: false)] }
            return []
        }

        func endUtterance() throws(SpeechRecognizerError) -> [SpeechResult] { [] }
        func finish() throws(SpeechRecognizerError) -> [SpeechResult] {
            [SpeechResult(text: "last words", startMs: Int64(utterance * 600), endMs: Int64(utterance * 600 + 100), isFinal: true)]
        }
    }

    static func opusFrames(_ count: Int) throws -> [RemoteFrame] {
        let encoder = try OpusEncoder()
        return try (0..<count).map { index in
            let pcm = (0..<960).map { Int16(3000 * sin(Double($0) / 10)) }
            return RemoteFrame(participantID: "p1", kind: .audio, codec: .opus, bytes: try encoder.encode(pcm), isKeyframe: true,
                               rtpTimestamp: Int64(index) * 960, clockRate: 48_000, wallTimeNanoseconds: 0, mappedBySenderReport: false)
        }
    }

    @Test func partialsThenFinalsInOrderAndTheLastAtStop() async throws {
        let sent = Mutex<[String]>([])
        let relay = CaptionRelay(makeRecognizer: { CountingRecognizer() }, partials: true, log: { _ in },
                                 sender: DataSender { text in sent.withLock { $0.append(text) } })
        let track = RemoteTrack(participantID: "p1", kind: .audio, codec: .opus)
        try relay.attach(track, display: "Alice")
        for frame in try Self.opusFrames(62) { track.deliver(frame) }
        await relay.stop()
        let messages = try sent.withLock { $0 }.map { try JSONValue(parsing: $0) }
        #expect(messages.allSatisfy { $0["type"]?.stringValue == "caption" && $0["from"]?.stringValue == "Alice" })
        #expect(messages.map { $0["text"]?.stringValue ?? "" } == ["utter", "utterance 1", "utter", "utterance 2", "last words"], "\(messages)")
        #expect(messages.map { $0["final"] == .bool(true) } == [false, true, false, true, true])
        let times = messages.compactMap { $0["t_ms"]?.integerValue }
        #expect(times.count == 5 && times[1] < times[3] && times[3] - times[1] == 600, "\(times)")
        #expect(relay.counters.finals == 3 && relay.counters.partials == 2)
    }

    @Test func withoutPartialsOnlyFinalsAndAFailureIsCountedAndLogged() async throws {
        let sent = Mutex<[String]>([])
        let logged = Mutex<[String]>([])
        let relay = CaptionRelay(makeRecognizer: { CountingRecognizer(failAt: 40) }, partials: false,
                                 log: { line in logged.withLock { $0.append(line) } },
                                 sender: DataSender { text in sent.withLock { $0.append(text) } })
        let track = RemoteTrack(participantID: "p1", kind: .audio, codec: .opus)
        try relay.attach(track, display: "Bob")
        for frame in try Self.opusFrames(60) { track.deliver(frame) }
        await relay.stop()
        let texts = try sent.withLock { $0 }.map { try JSONValue(parsing: $0)["text"]?.stringValue ?? "" }
        #expect(texts == ["utterance 1"], "the recognizer failed at frame 40: \(texts)")
        #expect(relay.counters.recognizerFailures == 1)
        #expect(logged.withLock { $0 }.contains { $0.contains("Bob's speech recognizer stopped") })
    }
}
