import Agent
import Foundation
import Speech

/// `agentd-bench speech`: the word error rate of each speech engine over 20 fixed sentences
/// spoken by espeak-ng, and the CPU each takes per second of audio (issue 15).
struct SpeechBenchmark {
    let options: SpeechOptions

    /// Everyday sentences of a meeting, fixed so that runs compare.
    static let sentences = [
        "the weather is nice today", "please call me back tomorrow morning", "i would like a cup of coffee",
        "the meeting starts at ten o'clock", "can you hear me now", "we are going to the store",
        "my phone number is easy to remember", "the train was late again this morning", "she reads a book every night",
        "thank you for joining the call", "let us start the presentation", "the children are playing in the park",
        "i will send you the report later", "what time is it", "the quick brown fox jumps over the lazy dog",
        "there is a problem with the network", "he bought a new car last week", "please turn off your microphone",
        "the sun is shining and the sky is blue", "good morning everyone and welcome",
    ]
    static let leadMs = 500
    static let tailMs = 1_000

    func run() throws(BenchError) {
        Console.line(MachineInfo.current().line)
        Console.line("speech: \(Self.sentences.count) sentences, espeak-ng voice \(options.voice) at \(options.wordsPerMinute) wpm, 16 kHz, "
            + "\(Self.leadMs) ms of silence before and \(Self.tailMs) ms after each, fed in 20 ms chunks, endUtterance after each")
        let spoken = try Self.sentences.map { sentence throws(BenchError) in try speak(sentence) }
        let audioSeconds = Double(spoken.map(\.count).reduce(0, +)) / Double(SpeechAudio.sampleRate)
        Console.line(String(format: "audio: %.1f s", audioSeconds))
        Console.line("figure: WER = (substitutions + deletions + insertions) / reference words, over all sentences (lower is better); CPU per audio second")
        Console.line()
        var engines: [(name: String, make: () throws(SpeechRecognizerError) -> any SpeechRecognizer)] = [
            ("pocketsphinx (in process, free-form, Debian en-us)", { () throws(SpeechRecognizerError) in try PocketSphinxRecognizer() }),
        ]
        if let python = options.python, FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: options.adapter) {
            let configuration = CommandRecognizerConfiguration(executable: python, arguments: [options.adapter])
            engines.append(("command: \((options.adapter as NSString).lastPathComponent) (PyPI pocketsphinx 5)",
                            { () throws(SpeechRecognizerError) in try CommandSpeechRecognizer(configuration: configuration) }))
        } else {
            Console.line("command engine left out: no --python, or no adapter at \(options.adapter)")
        }
        var rows = [["words", "S", "D", "I", "WER %", "WER / in-process", "CPU s per audio s", "speed", "engine"]]
        var anchor: Double?
        for engine in engines {
            let (errors, cpu) = try Self.measure(engine.make, spoken: spoken, name: engine.name)
            anchor = anchor ?? errors.rate
            rows.append([String(errors.referenceWords), String(errors.substitutions), String(errors.deletions), String(errors.insertions),
                         String(format: "%.1f", errors.rate * 100), String(format: "%.2f", errors.rate / max(0.0001, anchor ?? 1)),
                         String(format: "%.3f", cpu / audioSeconds), String(format: "%.1fx", audioSeconds / max(0.001, cpu)), engine.name])
        }
        Console.line()
        for line in TextTable.lines(rows) { Console.line(line) }
    }

    /// One engine over every sentence: its errors, and the CPU seconds (ours and a child's) it took.
    static func measure(_ make: () throws(SpeechRecognizerError) -> any SpeechRecognizer, spoken: [[Int16]],
                        name: String) throws(BenchError) -> (WordErrors, Double) {
        var errors = WordErrors()
        var own = (cpu: 0.0, wall: 0.0)
        let child = try CompositeBenchmark.measured({ () throws(BenchError) in
            own = try CompositeBenchmark.measured { () throws(BenchError) in
                do {
                    let recognizer = try make()
                    for (index, audio) in spoken.enumerated() {
                        var finals: [SpeechResult] = []
                        var offset = 0
                        while offset < audio.count {
                            let end = min(audio.count, offset + 320)
                            finals += try recognizer.feed(Array(audio[offset..<end])).filter(\.isFinal)
                            offset = end
                        }
                        finals += try recognizer.endUtterance().filter(\.isFinal)
                        let heard = finals.map(\.text).joined(separator: " ")
                        let sentence = WordErrors(reference: sentences[index], hypothesis: heard)
                        errors = errors + sentence
                        Console.line("  \(sentence.total == 0 ? "ok " : "\(sentence.total)  ") \(sentences[index]) -> \(heard)")
                    }
                    _ = try recognizer.finish()
                } catch {
                    throw BenchError("\(name): \(error)")
                }
            }
        }, children: true)
        Console.line("\(name): WER \(String(format: "%.1f", errors.rate * 100)) %")
        return (errors, own.cpu + child.cpu)
    }

    /// One sentence as 16 kHz PCM between its silences.
    func speak(_ sentence: String) throws(BenchError) -> [Int16] {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-bench-speech-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let run = try ToolOutput.run(options.espeak, ["-v", options.voice, "-s", String(options.wordsPerMinute), "-w", wav, sentence])
        guard run.status == 0 else { throw BenchError("espeak-ng exited \(run.status) for '\(sentence)'") }
        do {
            let reader = try SoundFileReader(path: wav)
            let resampler = try AudioResampler(inputRate: reader.info.sampleRate, outputRate: SpeechAudio.sampleRate, channels: 1)
            let speech = try resampler.process(reader.readAll()) + resampler.flushInt16()
            let silence = { (ms: Int) in [Int16](repeating: 0, count: ms * SpeechAudio.samplesPerMillisecond) }
            return silence(Self.leadMs) + speech + silence(Self.tailMs)
        } catch {
            throw BenchError("reading espeak-ng's WAV: \(error)")
        }
    }
}
