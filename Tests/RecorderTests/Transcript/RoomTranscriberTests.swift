import Foundation
import Speech
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import Recorder

/// ``RoomTranscriber`` with a recognizer whose answers are known: the timeline mapping across
/// filled gaps and new stretches, drops at the bounded queue, and a failing recognizer.
@Suite(.offThePool) struct RoomTranscriberTests {
    /// Hears an "utterance" wherever the fed audio is not silent, with times counted from the
    /// first sample fed, as a real engine does; the text says how many it heard.
    final class EdgeRecognizer: SpeechRecognizer, @unchecked Sendable {
        private var fed: Int64 = 0
        private var start: Int64?
        private var count = 0
        var failAfterSamples: Int64 = .max

        func feed(_ samples: [Int16]) throws(SpeechRecognizerError) -> [SpeechResult] {
            var results: [SpeechResult] = []
            for sample in samples {
                if fed >= failAfterSamples { throw .engineFailed(operation: "feed", status: -1) }
                if sample != 0, start == nil { start = fed }
                if sample == 0, let begin = start, fed - begin > 800 { results += close(at: fed) }
                fed += 1
            }
            return results
        }

        func endUtterance() throws(SpeechRecognizerError) -> [SpeechResult] { close(at: fed) }
        func finish() throws(SpeechRecognizerError) -> [SpeechResult] { close(at: fed) }

        private func close(at end: Int64) -> [SpeechResult] {
            guard let begin = start else { return [] }
            start = nil
            count += 1
            return [SpeechResult(text: "utterance \(count)", startMs: begin / 16, endMs: end / 16, isFinal: true)]
        }
    }

    /// 20 ms blocks of a tone from `fromMs` to `toMs` (48 kHz timeline positions).
    static func blocks(fromMs: Int64, toMs: Int64, tone: Bool = true) -> [(pcm: [Int16], sample: Int64)] {
        stride(from: fromMs, to: toMs, by: 20).map { ms in
            ((0..<960).map { tone ? Int16(5000 * sin(2 * Double.pi * 300 * Double($0) / 48_000)) + 1 : 0 }, ms * 48)
        }
    }

    @Test func utterancesLandOnTheTimelineAcrossFilledGapsAndNewStretches() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let transcriber = RoomTranscriber(directory: directory.path, recognizer: { EdgeRecognizer() })
        // Alice: 1.0–2.0 s, nothing until 3.0 (a 1 s gap: filled), 3.0–3.5 s, silence to 4 s, then
        // nothing until 10 s (a new stretch), 10.0–11.0 s.
        transcriber.add(Self.blocks(fromMs: 0, toMs: 1000, tone: false) + Self.blocks(fromMs: 1000, toMs: 2000), from: "Alice")
        transcriber.add(Self.blocks(fromMs: 3000, toMs: 3500) + Self.blocks(fromMs: 3500, toMs: 4000, tone: false), from: "Alice")
        transcriber.add(Self.blocks(fromMs: 10_000, toMs: 11_000), from: "Alice")
        // Bob from 500 ms, one utterance, leaves at once.
        transcriber.add(Self.blocks(fromMs: 500, toMs: 1500), from: "Bob")
        transcriber.leave("Bob")
        transcriber.finish()
        #expect(transcriber.error == nil)
        let lines = try String(contentsOfFile: directory.file("transcript.jsonl"), encoding: .utf8).split(separator: "\n")
        let found = try lines.map { line -> (String, Int64, Int64) in
            let value = try JSONValue(parsing: String(line))
            return (value["participant"]?.stringValue ?? "", value["start_ms"]?.integerValue ?? -1, value["end_ms"]?.integerValue ?? -1)
        }
        let expected: [(String, Int64, Int64)] = [("Bob", 500, 1500), ("Alice", 1000, 2000), ("Alice", 3000, 3500), ("Alice", 10_000, 11_000)]
        #expect(found.count == expected.count, "\(found)")
        for (got, want) in zip(found, expected) {
            #expect(got.0 == want.0 && abs(got.1 - want.1) <= 30 && abs(got.2 - want.2) <= 80, "\(got) for \(want)")
        }
        #expect(transcriber.utteranceCount == 4)
        let vtt = try String(contentsOfFile: directory.file("captions.vtt"), encoding: .utf8)
        #expect(vtt.contains("<v Bob>utterance 1") && vtt.contains("<v Alice>utterance 3"))
    }

    @Test func aFailingRecognizerStopsOnlyItsParticipantAndIsReported() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let reported = Mutex<[String]>([])
        let transcriber = RoomTranscriber(directory: directory.path, recognizer: {
            let recognizer = EdgeRecognizer()
            return recognizer
        }, reportError: { reason in reported.withLock { $0.append(reason) } })
        let failing = RoomTranscriber(directory: directory.path + "/../" + (directory.path as NSString).lastPathComponent,
                                      recognizer: {
            let recognizer = EdgeRecognizer()
            recognizer.failAfterSamples = 4000
            return recognizer
        }, reportError: { reason in reported.withLock { $0.append(reason) } })
        failing.add(Self.blocks(fromMs: 0, toMs: 1000), from: "Alice")
        failing.finish()
        #expect(failing.error?.contains("Alice's speech recognizer") == true, "\(String(describing: failing.error))")
        #expect(reported.withLock { $0.count } == 1)
        transcriber.finish()
        #expect(transcriber.error == nil)
        // A queue that cannot keep up drops and counts, never blocks the caller.
        let small = RoomTranscriber(directory: directory.path, queueCapacity: 1, recognizer: { EdgeRecognizer() })
        small.add(Self.blocks(fromMs: 0, toMs: 4000), from: "Carol")
        small.finish()
        #expect(small.blocksDropped > 0 && small.blocksDropped < 200)
        #expect(small.manifestFiles(bytes: { _ in nil }).allSatisfy { $0.blocksDropped == small.blocksDropped })
    }
}
