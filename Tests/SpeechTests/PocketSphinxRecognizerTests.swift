import Foundation
import Speech
import TestSupport
import Testing

/// pocketsphinx on espeak-ng speech: free-form dictation with word times, a command set, and
/// the recognizer's typed refusals. Decoding takes seconds of CPU, hence off the pool.
@Suite(.offThePool) struct PocketSphinxRecognizerTests {
    /// The first utterance a decoder hears is decoded worse than the ones after it (its
    /// cepstral mean adapts from the model's prior over the first seconds of speech), so the
    /// word check starts at the second sentence; the first still has to come with its times.
    static let sentences = ["good morning everyone and welcome", "the weather is nice today", "please call me back tomorrow morning"]

    /// The commands of the command-mode test; each is said at two speeds.
    static let commands = [
        "turn on the lights", "turn off the lights", "what time is it", "start recording", "stop recording",
        "mute the microphone", "volume up", "volume down", "next slide", "call the doctor",
    ]

    @Test("free-form: three sentences with pauses give a final each, with most words, times inside their speech, and partials before")
    func freeFormSentences() async throws {
        // The second pause is longer than the 5 s after which a silent utterance is restarted:
        // times must still count from the first sample.
        let pauses = [1_000, 1_500, 6_000]
        var audio: [Int16] = []
        var spans: [ClosedRange<Int64>] = []
        for (sentence, pause) in zip(Self.sentences, pauses) {
            audio += SpokenAudio.silence(milliseconds: pause)
            let start = Int64(audio.count / 16)
            audio += try await SpokenAudio.say(sentence)
            spans.append(start...Int64(audio.count / 16))
        }
        audio += SpokenAudio.silence(milliseconds: 1_000)
        let recognizer = try PocketSphinxRecognizer()
        let results = try SpokenAudio.feed(audio, to: recognizer) + recognizer.finish()
        let finals = results.filter(\.isFinal)
        try #require(finals.count == 3, "finals: \(finals.map(\.text))")
        #expect(results.contains { !$0.isFinal }, "no partial result came before the finals")
        for (index, final) in finals.enumerated() {
            let overlap = wordOverlap(final.text, Self.sentences[index])
            #expect(index == 0 || overlap >= 0.6, "heard '\(final.text)' for '\(Self.sentences[index])' (\(Int(overlap * 100)) % of its words)")
            // The words lie inside the sentence's audio, give or take pocketsphinx's 10 ms frames
            // and the silence it counts into the first and last word.
            let span = (spans[index].lowerBound - 300)...(spans[index].upperBound + 300)
            #expect(span.contains(final.startMs) && span.contains(final.endMs), "'\(final.text)' at \(final.startMs)-\(final.endMs) ms, speech at \(spans[index])")
            #expect(final.words.count == final.text.split(separator: " ").count)
            #expect(zip(final.words, final.words.dropFirst()).allSatisfy { $0.endMs <= $1.startMs }, "word times out of order: \(final.words)")
            #expect(final.confidence.map { (0...1).contains($0) } ?? false)
        }
    }

    @Test("the result does not depend on how the audio is chunked")
    func chunkingDoesNotMatter() async throws {
        let audio = SpokenAudio.silence(milliseconds: 500) + (try await SpokenAudio.say("what time is it")) + SpokenAudio.silence(milliseconds: 1_000)
        var finals: [[SpeechResult]] = []
        for chunk in [160, 1_234, audio.count] {
            let recognizer = try PocketSphinxRecognizer(configuration: .init(mode: .commands(Self.commands)))
            finals.append((try SpokenAudio.feed(audio, to: recognizer, chunk: chunk) + recognizer.finish()).filter(\.isFinal))
        }
        // The speech detector is read every 100 ms block, so times may move by a frame or two.
        for found in finals {
            #expect(found.map(\.text) == ["what time is it"])
            #expect(found.count == 1 && abs(found[0].startMs - finals[0][0].startMs) <= 50 && abs(found[0].endMs - finals[0][0].endMs) <= 50, "\(finals)")
        }
    }

    @Test("command mode recognizes each of 10 commands at two speeds, at least 95 % of the 20")
    func commandSet() async throws {
        let recognizer = try PocketSphinxRecognizer(configuration: .init(mode: .commands(Self.commands)))
        var heard: [String] = []
        var correct = 0
        var total = 0
        for speed in [140, 175] {
            for command in Self.commands {
                let audio = (try await SpokenAudio.say(command, wordsPerMinute: speed)) + SpokenAudio.silence(milliseconds: 800)
                let finals = try SpokenAudio.feed(audio, to: recognizer).filter(\.isFinal) + recognizer.endUtterance()
                let text = finals.map(\.text).joined(separator: " | ")
                heard.append("\(command) @\(speed) -> \(text)")
                total += 1
                if text == command { correct += 1 }
            }
        }
        let accuracy = Double(correct) / Double(total)
        print("command mode: \(correct)/\(total) (\(Int((accuracy * 100).rounded())) %)")
        #expect(accuracy >= 0.95, "\(correct)/\(total):\n\(heard.joined(separator: "\n"))")
    }

    @Test("endUtterance by the caller gives the final of what was said so far; silence gives none")
    func callerEndsTheUtterance() async throws {
        let recognizer = try PocketSphinxRecognizer(configuration: .init(mode: .commands(Self.commands)))
        #expect(try SpokenAudio.feed(SpokenAudio.silence(milliseconds: 700), to: recognizer).isEmpty)
        #expect(try recognizer.endUtterance().isEmpty)
        let first = (try await SpokenAudio.say("what time is it")) + SpokenAudio.silence(milliseconds: 800)
        #expect(try SpokenAudio.feed(first, to: recognizer).filter(\.isFinal).map(\.text) == ["what time is it"])
        // Only espeak-ng's own short tail of silence after the speech: less than the detector's
        // half second (`-vad_postspeech`), so it is the caller who ends the utterance.
        let second = try await SpokenAudio.say("next slide")
        let results = try SpokenAudio.feed(second, to: recognizer)
        let anyFinal = results.contains { $0.isFinal }
        #expect(!anyFinal)
        let final = try recognizer.endUtterance()
        #expect(final.map(\.text) == ["next slide"], "\(results) then \(final)")
    }

    @Test("a missing model, an unknown command word, a bad phrase and audio after finish are typed errors")
    func refusals() throws {
        #expect(throws: SpeechRecognizerError.modelMissing(path: "/nonexistent/en-us")) {
            try PocketSphinxRecognizer(configuration: .init(modelDirectory: "/nonexistent"))
        }
        #expect(throws: SpeechRecognizerError.unknownWords(["frobnicatorix"])) {
            try PocketSphinxRecognizer(configuration: .init(mode: .commands(["stop", "frobnicatorix now"])))
        }
        #expect(throws: SpeechRecognizerError.invalidConfiguration("command word 'lights;' must be letters (a-z) and apostrophes")) {
            try PocketSphinxRecognizer(configuration: .init(mode: .commands(["turn on the lights;"])))
        }
        let recognizer = try PocketSphinxRecognizer(configuration: .init(mode: .commands(["stop"])))
        #expect(try recognizer.finish().isEmpty)
        #expect(try recognizer.finish().isEmpty)
        #expect(throws: SpeechRecognizerError.finished) { try recognizer.feed([0, 0]) }
    }
}
