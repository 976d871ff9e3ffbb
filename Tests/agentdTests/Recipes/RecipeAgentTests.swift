import Foundation
import TestSupport
import Testing

/// The voice agent recipe against the real Janus: a speaker asks "what time is it" and, while
/// the bot answers, speaks over it; `agentd record` records both on one timeline. The answer's
/// first audio comes within 1.5 s of the end of the question, and the bot's audio stops within
/// 200 ms of the interruption. A second test drives the bot from a small responder program.
/// Both run in scripts/test's latency phase, alone on the machine (``LabEnvironment/shouldRunLatencyBound``).
@Suite("RecipeAgent", .enabled(if: LabEnvironment.shouldRunLatencyBound), .serialized)
struct RecipeAgentTests {
    /// 2 s of silence, the question, 3.5 s of silence (the bot answers), the interruption, 6 s of silence.
    static func speech(in scratch: ScratchDirectory) async throws -> String {
        var parts: [String] = []
        for (index, piece) in [(false, "2"), (true, "what time is it"), (false, "3.5"), (true, "wait, stop, stop please"), (false, "6")].enumerated() {
            let path = scratch.path("piece\(index).wav")
            let run = piece.0
                ? try await runTool("/usr/bin/espeak-ng", ["-v", "en-us+klatt2", "-s", "150", "-w", path, piece.1])
                : try await runTool("/usr/bin/sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", path, "trim", "0", piece.1])
            try #require(run.status == 0, "\(run.errors)")
            parts.append(path)
        }
        let out = scratch.path("speech.wav")
        let joined = try await runTool("/usr/bin/sox", parts + ["-r", "48000", out])
        try #require(joined.status == 0, "sox: \(joined.errors)")
        return out
    }

    /// Stretches of sound in a 48 kHz WAV: 10 ms windows above an RMS of 300, pauses under `bridgeMs` bridged.
    static func sounds(_ path: String, bridgeMs: Int = 400) throws -> [(startMs: Int, endMs: Int)] {
        let samples = try RecordingChecks.samples(path).samples
        var spans: [(startMs: Int, endMs: Int)] = []
        for (index, level) in RecipeLab.windowRMS(samples, window: 480).enumerated() where level > 300 {
            let ms = index * 10
            if let last = spans.last, ms - last.endMs <= bridgeMs {
                spans[spans.count - 1].endMs = ms + 10
            } else {
                spans.append((ms, ms + 10))
            }
        }
        return spans
    }

    /// The recorder, then the bot (until its data is recorded), then the speaker (aiortc's player,
    /// sending silence), and the speech only once the bot hears the speaker (under a loaded CI run
    /// the bot's subscription once came after the question); the recording stops when the speech
    /// has played (it ends in 6 s of silence).
    static func run(_ lab: RecipeLab, recipe: String) async throws -> (recording: String, bot: ChildProcess) {
        let recording = lab.scratch.path("recording")
        let recorder = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.lab.janusWS, "--room", lab.room, "--create", "--out", recording, "--duration", "120",
             "--formats", "wav,data", "--ice-allow", lab.iceInterface],
            name: "agentd record")
        defer { recorder.terminate() }
        let bot = try lab.bot(recipe, seconds: 180)
        // The speaker joins once the recording holds the bot's data messages (the recipes tick):
        // a greeting on join must not be sent before the recorder has the bot's data channel.
        try await pollUntil(timeout: .seconds(30), "the bot's data in the recording") {
            ((try? String(contentsOfFile: recording + "/data.jsonl", encoding: .utf8)) ?? "").contains("tick")
        }
        let player = try ChildProcess(
            Repository.python,
            [Repository.peer("player.py"), "--ws", lab.lab.janusWS, "--room", lab.room, "--display", "speaker",
             "--audio", try await speech(in: lab.scratch), "--play-on-stdin", "--duration", "120"],
            name: "speaker")
        defer { player.terminate() }
        _ = try await player.waitForLine(prefix: "READY", within: .seconds(90))
        do {
            try await pollUntil(timeout: .seconds(30), "the bot to hear the speaker") { bot.stderr.contains("agent: hearing speaker") }
        } catch {
            Issue.record("the bot: \(bot.stderr.suffix(1500)); the speaker: \(player.stderr.suffix(1500))")
            throw error
        }
        player.send(line: "play")
        _ = try await player.waitForLine(prefix: "PLAYED", within: .seconds(60))
        recorder.send(signal: SIGINT)
        try await pollUntil(timeout: .seconds(30), "the recording to end") { !recorder.isRunning }
        #expect(recorder.exitStatus == 0, "\(recorder.stderr.suffix(800))")
        return (recording, bot)
    }

    /// The recipes' data message every 0.5 s, which tells the test the recorder hears the bot's data.
    static let tick = #""behaviours": [{"every": 0.5, "send": {"type": "tick"}}]"#

    /// The answer to any words (the fallback too: under a loaded CI run pocketsphinx once heard the
    /// question as words without "time" or "what"; what it hears is not what this test measures).
    static let longAnswer = "It is {time} universal time and I will keep talking for a good while now so that you can interrupt me whenever you like because this answer has a great many words in it"

    @Test("rules: the answer starts within 1.5 s of the question's end, and speaking over it stops it within 200 ms")
    func answersAndStopsWhenInterrupted() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try RecipeLab("agent")
            let recipe = try lab.recipe("agent", """
                {"name": "agent", "display": "agent", "tracks": {"audio": {"source": "speech", "voice": "en-us"}}, \(Self.tick),
                 "agent": {"end_of_turn_ms": 500, "responder": {"type": "rules", "rules": [
                   {"match": "time|what", "say": "\(Self.longAnswer)"}],
                   "fallback": {"say": "\(Self.longAnswer)"}}}}
                """)
            let (recording, bot) = try await Self.run(lab, recipe: recipe)
            defer { bot.terminate() }
            let (status, summary) = try await RecipeLab.stop(bot)
            print("RecipeAgent: \(summary)")
            #expect(status == 0, "\(bot.stderr.suffix(800))")
            for line in bot.stderr.split(separator: "\n") where line.hasPrefix("agent:") { print("RecipeAgent: bot said \(line)") }

            let speaker = try Self.sounds(recording + "/speaker.wav")
            let agent = try Self.sounds(recording + "/agent.wav", bridgeMs: 0)
            print("RecipeAgent: speaker \(speaker.map { "\($0.startMs)-\($0.endMs)" }), agent \(agent.map { "\($0.startMs)-\($0.endMs)" })")
            try #require(speaker.count == 2, "the question and the interruption")
            let question = speaker[0]
            let interruption = speaker[1]
            let answer = try #require(agent.first { $0.startMs >= question.endMs }, "no answer after the question")
            let latency = answer.startMs - question.endMs
            print("RecipeAgent: end of question \(question.endMs) ms → first answer audio \(answer.startMs) ms: \(latency) ms")
            #expect(latency <= 1_500)
            // The bot was talking when the interruption began (so its stop is the barge-in's doing) ...
            #expect(agent.contains { $0.startMs < interruption.startMs && $0.endMs > interruption.startMs - 300 },
                    "the bot was silent before the interruption at \(interruption.startMs) ms")
            // ... and no sound of it lasts past 200 ms after the interruption began. (The bot's answer
            // to the interruption itself starts at least end_of_turn_ms after the interruption's end.)
            let lastSound = agent.filter { $0.startMs < interruption.endMs + 300 }.map(\.endMs).max() ?? 0
            print("RecipeAgent: interruption at \(interruption.startMs) ms, the bot's last sound ends at \(lastSound) ms: \(lastSound - interruption.startMs) ms later")
            #expect(lastSound <= interruption.startMs + 200)
            #expect(summary.contains("1 barge-ins"), "\(summary)")
        }
    }

    @Test("command: a responder program greets who joins and answers what they say, as data and speech")
    func commandResponderDrivesTheBot() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try RecipeLab("agent-cmd")
            let program = lab.scratch.path("responder.py")
            try #"""
                import json, sys
                for line in sys.stdin:
                    msg = json.loads(line)
                    if msg["type"] == "joined":
                        print(json.dumps({"send": {"type": "hello", "to": msg["name"]}}), flush=True)
                    elif msg["type"] == "transcript":
                        print(json.dumps({"say": "It is noon.", "send": {"type": "answer", "heard": msg["text"], "from": msg["from"]}}), flush=True)
                """#.write(toFile: program, atomically: true, encoding: .utf8)
            let recipe = try lab.recipe("agent", """
                {"name": "agent", "display": "agent", "tracks": {"audio": {"source": "speech"}}, \(Self.tick),
                 "agent": {"responder": {"type": "command", "command": ["/usr/bin/python3", "-u", "\(program)"]}}}
                """)
            let (recording, bot) = try await Self.run(lab, recipe: recipe)
            defer { bot.terminate() }
            let (status, summary) = try await RecipeLab.stop(bot)
            print("RecipeAgent: \(summary)")
            #expect(status == 0, "\(bot.stderr.suffix(800))")

            let data = (try? String(contentsOfFile: recording + "/data.jsonl", encoding: .utf8)) ?? ""
            let messages = data.split(separator: "\n").compactMap { line -> [String: Any]? in
                guard let outer = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let text = outer["text"] as? String else { return nil }
                return try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            }
            print("RecipeAgent: the recording's data messages: \(messages)")
            #expect(messages.contains { $0["type"] as? String == "hello" && $0["to"] as? String == "speaker" })
            let answers = messages.filter { $0["type"] as? String == "answer" }
            #expect(answers.first?["from"] as? String == "speaker", "\(answers)")
            #expect((answers.first?["heard"] as? String).map { !$0.isEmpty } == true)
            let question = try #require(try Self.sounds(recording + "/speaker.wav").first)
            let agent = try Self.sounds(recording + "/agent.wav", bridgeMs: 0)
            #expect(agent.contains { $0.startMs >= question.endMs && $0.startMs <= question.endMs + 2_500 },
                    "\"It is noon.\" after the question that ended at \(question.endMs) ms: \(agent)")
        }
    }
}
