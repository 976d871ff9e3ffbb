import Foundation
import TestSupport
import Testing

/// Issue 6's recipe acceptance: each recipe runs as `agentd bot` in the lab, and its effect is
/// observed from another participant (an aiortc subscriber's audio.wav and data.jsonl, Janus's
/// participant list).
@Suite("RecipeLab", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecipeLabTests {
    static let shipped = Repository.root.appendingPathComponent("recipes")

    static func shipped(_ name: String) -> String { shipped.appendingPathComponent("\(name).json").path }

    @Test("tone: a subscriber hears 440 Hz far above 660/880 Hz; SIGTERM stops the bot cleanly with a summary")
    func tone() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try RecipeLab("rtone")
            let bot = try lab.bot(Self.shipped("tone"), seconds: 30)
            defer { bot.terminate() }
            let subscriber = try lab.subscriber(of: "tone", out: lab.scratch.path("sub"), seconds: 4)
            defer { subscriber.terminate() }
            _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(90))
            try await RecipeLab.finish(subscriber)
            let (samples, rate) = try RecordingChecks.samples(lab.scratch.path("sub/audio.wav"))
            #expect(rate == 48_000)
            let middle = samples.dropFirst(24_000).prefix(3 * 48_000)
            let (tone, at660, at880) = (goertzelPower(middle, frequency: 440), goertzelPower(middle, frequency: 660), goertzelPower(middle, frequency: 880))
            print("RecipeLab tone: 440 Hz \(String(format: "%.0f", 10 * log10(tone / max(at660, at880, 1)))) dB above 660/880; RMS \(Int(RecordingChecks.rms(middle))) over \(middle.count) samples")
            #expect(middle.count >= 2 * 48_000, "only \(middle.count) samples arrived")
            #expect(tone > 1000 * at660 && tone > 1000 * at880)
            #expect(RecordingChecks.rms(middle) > 8000, "the half-scale tone arrived at its level")
            let (status, summary) = try await RecipeLab.stop(bot)
            print("RecipeLab tone: \(summary)")
            #expect(status == 0, "\(bot.stderr)")
            #expect(summary.contains("stopped by signal") && summary.contains("1 participant"), "\(summary)")
        }
    }

    @Test("player: a looped 5 s WebM plays past its end: VP8 frames and its 440 Hz tone arrive, the bot says 2 passes")
    func player() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try RecipeLab("rplayer")
            _ = try await GeneratedSamples.encoded("pattern.webm", in: lab.scratch)
            let recipe = try lab.recipe("player", #"""
                {"name": "player", "display": "player",
                 "tracks": {"video": {"source": "file", "playlist": ["pattern.webm"], "loop": true}}}
                """#)
            let bot = try lab.bot(recipe, seconds: 7.5)
            defer { bot.terminate() }
            let subscriber = try lab.subscriber(of: "player", out: lab.scratch.path("sub"), seconds: 5)
            defer { subscriber.terminate() }
            _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(90))
            try await RecipeLab.finish(subscriber)
            let summaryData = try Data(contentsOf: URL(fileURLWithPath: lab.scratch.path("sub/summary.json")))
            let received = try #require(try JSONSerialization.jsonObject(with: summaryData) as? [String: Any])
            let videoFrames = received["video_frames"] as? Int ?? 0
            let (samples, _) = try RecordingChecks.samples(lab.scratch.path("sub/audio.wav"))
            let middle = samples.dropFirst(24_000).prefix(3 * 48_000)
            let (tone, at660) = (goertzelPower(middle, frequency: 440), goertzelPower(middle, frequency: 660))
            print("RecipeLab player: \(videoFrames) video frames; 440 Hz \(String(format: "%.0f", 10 * log10(tone / max(at660, 1)))) dB above 660 Hz")
            #expect(videoFrames >= 100, "5 s of 30 fps video arrived as \(videoFrames) frames")
            #expect(tone > 100 * at660)
            // The bot ends by its duration (7.5 s), past the file's 5 s: the playlist started over.
            try await pollUntil(timeout: .seconds(20), "agentd bot to end by its duration") { !bot.isRunning }
            let summary = bot.stderr.split(separator: "\n").last.map(String.init) ?? ""
            print("RecipeLab player: \(summary)")
            #expect(bot.exitStatus == 0, "\(bot.stderr)")
            #expect(summary.contains("stopped by duration") && summary.contains("(2 pass(es))"), "\(summary)")
        }
    }

    @Test("echo: an aiortc publisher's 440 Hz tone comes back from the echo bot")
    func echo() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try RecipeLab("recho")
            let talker = try lab.publisher("talker", tone: 440, seconds: 40)
            defer { talker.terminate() }
            _ = try await talker.waitForLine(prefix: "READY", within: .seconds(90))
            let bot = try lab.bot(Self.shipped("echo"), seconds: 30)
            defer { bot.terminate() }
            let subscriber = try lab.subscriber(of: "echo", out: lab.scratch.path("sub"), seconds: 5)
            defer { subscriber.terminate() }
            _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(90))
            try await RecipeLab.finish(subscriber)
            let (samples, _) = try RecordingChecks.samples(lab.scratch.path("sub/audio.wav"))
            let late = samples.dropFirst(48_000).prefix(3 * 48_000)
            let (tone, at660) = (goertzelPower(late, frequency: 440), goertzelPower(late, frequency: 660))
            print("RecipeLab echo: 440 Hz \(String(format: "%.0f", 10 * log10(tone / max(at660, 1)))) dB above 660 Hz; RMS \(Int(RecordingChecks.rms(late)))")
            #expect(tone > 100 * at660)
            #expect(RecordingChecks.rms(late) > 2000, "the echoed tone has energy")
            let (status, summary) = try await RecipeLab.stop(bot)
            print("RecipeLab echo: \(summary)")
            #expect(status == 0, "\(bot.stderr)")
            #expect(summary.contains("of 1 participant(s)"), "\(summary)")
        }
    }

    @Test("announcer: a scheduled announcement is heard again and again (speech bursts with silence between)")
    func announcer() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try RecipeLab("rannounce")
            let recipe = try lab.recipe("announcer", #"""
                {"name": "announcer", "tracks": {"audio": {"source": "speech", "speed": 220}},
                 "behaviours": [{"every": 2.5, "say": "attention please"}]}
                """#)
            let bot = try lab.bot(recipe, seconds: 30)
            defer { bot.terminate() }
            let subscriber = try lab.subscriber(of: "announcer", out: lab.scratch.path("sub"), seconds: 6)
            defer { subscriber.terminate() }
            _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(90))
            try await RecipeLab.finish(subscriber)
            let (samples, _) = try RecordingChecks.samples(lab.scratch.path("sub/audio.wav"))
            let windows = RecipeLab.windowRMS(samples)
            let bursts = Self.bursts(windows)
            print("RecipeLab announcer: \(bursts) speech bursts in \(windows.count) windows; loudest \(Int(windows.max() ?? 0)), quietest \(Int(windows.min() ?? 0))")
            #expect(bursts >= 2, "a 2.5 s schedule gave \(bursts) bursts in 6 s: \(windows.map { Int($0) })")
            #expect((windows.min() ?? 1e9) < 100, "silence between announcements")
            let (status, summary) = try await RecipeLab.stop(bot)
            print("RecipeLab announcer: \(summary)")
            #expect(status == 0, "\(bot.stderr)")
        }
    }

    @Test("greeter: when carol joins, a subscriber gets the greeting naming her, then hears speech")
    func greeter() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try RecipeLab("rgreet")
            let bot = try lab.bot(Self.shipped("greeter"), seconds: 40)
            defer { bot.terminate() }
            let subscriber = try lab.subscriber(of: "greeter", out: lab.scratch.path("sub"), seconds: 8)
            defer { subscriber.terminate() }
            _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(90))
            let carol = try lab.publisher("carol", seconds: 30)
            defer { carol.terminate() }
            var greeting: [String: Any]?
            try await pollUntil(timeout: .seconds(20), "the greeting for carol in data.jsonl") {
                let log = (try? String(contentsOfFile: lab.scratch.path("sub/data.jsonl"), encoding: .utf8)) ?? ""
                for line in log.split(separator: "\n") {
                    guard let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                          let text = entry["data"] as? String,
                          let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                          message["to"] as? String == "carol" else { continue }
                    greeting = message
                }
                return greeting != nil
            }
            #expect(greeting?["type"] as? String == "greeting" && greeting?["text"] as? String == "welcome carol", "\(String(describing: greeting))")
            try await RecipeLab.finish(subscriber)
            let (samples, _) = try RecordingChecks.samples(lab.scratch.path("sub/audio.wav"))
            let windows = RecipeLab.windowRMS(samples)
            let speech = windows.filter { $0 > 1000 }.count
            print("RecipeLab greeter: greeting \(String(describing: greeting)); \(speech) of \(windows.count) windows with speech (loudest \(Int(windows.max() ?? 0)))")
            #expect(speech >= 4, "'welcome carol' is spoken: \(windows.map { Int($0) })")
            let (status, summary) = try await RecipeLab.stop(bot)
            print("RecipeLab greeter: \(summary)")
            #expect(status == 0, "\(bot.stderr)")
            #expect(summary.contains("(1 greetings)"), "\(summary)")
        }
    }

    @Test("load: three participants load-1..3 are listed by Janus, all publishing")
    func load() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try RecipeLab("rload")
            _ = try await GeneratedSamples.encoded("pattern.webm", in: lab.scratch)
            let recipe = try lab.recipe("load", #"""
                {"name": "load", "participants": 3,
                 "tracks": {"video": {"source": "file", "playlist": ["pattern.webm"], "loop": true}}}
                """#)
            let bot = try lab.bot(recipe, seconds: 30)
            defer { bot.terminate() }
            var publishing: Set<String> = []
            let deadline = ContinuousClock.now + .seconds(30)
            while publishing.count < 3, ContinuousClock.now < deadline, bot.isRunning {
                publishing = try await Self.publishers(lab)
                if publishing.count < 3 { try await Task.sleep(for: .milliseconds(300)) }
            }
            print("RecipeLab load: publishing \(publishing.sorted())")
            #expect(publishing == ["load-1", "load-2", "load-3"], "\(bot.stderr)")
            let (status, summary) = try await RecipeLab.stop(bot)
            print("RecipeLab load: \(summary)")
            #expect(status == 0, "\(bot.stderr)")
            #expect(summary.contains("3 participants"), "\(summary)")
        }
    }

    /// Displays of the room's publishers, from `agentd participants --json` (VideoRoom listparticipants).
    static func publishers(_ lab: RecipeLab) async throws -> Set<String> {
        let result = try await runTool(AgentdBinary.path, ["participants", "--server", lab.lab.janusWS, "--room", lab.room, "--json"])
        guard result.status == 0,
              let object = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
              let list = object["participants"] as? [[String: Any]] else { return [] }
        return Set(list.filter { $0["publisher"] as? Bool == true }.compactMap { $0["display"] as? String })
    }

    /// Speech bursts: runs of loud windows (RMS > 1000) after at least 300 ms of quiet (< 300).
    static func bursts(_ windows: [Double]) -> Int {
        var bursts = 0
        var quiet = 3
        for rms in windows {
            if rms > 1000 {
                if quiet >= 3 { bursts += 1 }
                quiet = 0
            } else if rms < 300 {
                quiet += 1
            }
        }
        return bursts
    }
}
