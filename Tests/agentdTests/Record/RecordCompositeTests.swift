import Agent
import Foundation
import Recorder
import TestSupport
import Testing

/// Issue 14's composite acceptance: `agentd record --formats composite` against the lab's Janus
/// with three aiortc publishers (two with video of distinct background colours, one audio-only;
/// one joins late, one leaves early). room.webm decodes clean, holds VP8 1280x720 and Opus, lasts
/// as long as the recording, shows each publisher's colour in its tile at sampled times and
/// holds every tone; and a beep + white-frame publisher's markers line up in room.webm.
@Suite("RecordComposite", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecordCompositeTests {
    typealias Colour = (y: Double, u: Double, v: Double)
    /// Background colours (Y, U, V) far apart in chroma; the moving square covers ~3% of a frame.
    static let colours: [String: Colour] = ["red": (81, 90, 240), "blue": (41, 240, 110)]
    static let tones = ["red": 440.0, "blue": 660.0, "voice": 880.0]
    static let publisherCap = "180"

    func publisher(_ lab: LabEnvironment, room: String, display: String, create: Bool, waiting: Bool = false,
                   extra: [String] = []) async throws -> ChildProcess {
        var arguments = [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", display,
                         "--tone", String(Int(Self.tones[display] ?? 440)), "--duration", Self.publisherCap, "--data-interval-ms", "0"]
        if let colour = Self.colours[display] {
            arguments += ["--background", "\(Int(colour.y)),\(Int(colour.u)),\(Int(colour.v))"]
        } else if extra.isEmpty {
            arguments.append("--no-video")
        }
        if create { arguments.append("--create") }
        if waiting { arguments.append("--join-on-stdin") }
        let process = try ChildProcess(Repository.python, arguments + extra, name: display)
        _ = try await process.waitForLine(prefix: waiting ? "WAITING" : "READY", within: .seconds(90))
        return process
    }

    func record(_ lab: LabEnvironment, room: String, out: String, seconds: Int, extra: [String] = []) throws -> ChildProcess {
        try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--duration", String(seconds),
             "--formats", "composite,webm", "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"] + extra,
            name: "agentd record")
    }

    @Test("three publishers, one late, one leaving early: room.webm's tiles, tones and length check out")
    func compositesTheRoom() async throws {
        try await SharedResourceLock.lab.withExclusive { try await compositeTheRoom() }
    }

    private func compositeTheRoom() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("composite")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-composite-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }

        let red = try await publisher(lab, room: room, display: "red", create: true)
        defer { red.terminate() }
        let voice = try await publisher(lab, room: room, display: "voice", create: false)
        defer { voice.terminate() }
        let blue = try await publisher(lab, room: room, display: "blue", create: false, waiting: true)
        defer { blue.terminate() }

        let recording = try record(lab, room: room, out: out, seconds: 12)
        defer { recording.terminate() }
        try await pollUntil(timeout: .seconds(10), "the recording to start") {
            FileManager.default.fileExists(atPath: out + "/manifest.json")
        }
        // blue joins about 3 s in, voice leaves about 7 s in.
        try await Task.sleep(for: .seconds(3))
        blue.send(line: "join")
        _ = try await blue.waitForLine(prefix: "READY", within: .seconds(7))
        try await Task.sleep(for: .seconds(3))
        await voice.terminate()
        try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
        #expect(recording.exitStatus == 0, "stderr: \(recording.stderr)")

        let path = out + "/room.webm"
        let errors = try await RecordingChecks.decodeErrors(path)
        #expect(errors.isEmpty, "ffmpeg -v error: \(errors.prefix(600))")
        let streams = try await RecordingChecks.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height",
                                                                        "-of", "csv=p=0", path])
        let lines = streams.output.split(separator: "\n").map { $0.trimmingCharacters(in: .init(charactersIn: ", ")) }.sorted()
        #expect(lines == ["opus", "vp8,1280,720"], "\(lines)")

        let manifest = try Self.manifest(out)
        let durationMs = try #require(manifest["duration_ms"] as? Int)
        let seconds = try await RecordingChecks.formatDuration(path)
        #expect(abs(seconds * 1000 - Double(durationMs)) <= 200, "room.webm \(seconds) s, recording \(durationMs) ms")
        let files = try #require(manifest["files"] as? [[String: Any]])
        let entry = try #require(files.first { $0["path"] as? String == "room.webm" })
        #expect(entry["format"] as? String == "composite")
        print("RecordComposite: room.webm frames_dropped \(entry["frames_dropped"] ?? "none")")

        // Who was on screen when, from the manifest, in join order (the grid's order).
        let participants = try #require(manifest["participants"] as? [[String: Any]])
        let stays: [(name: String, joined: Int, left: Int?)] = participants.compactMap { participant in
            guard let name = participant["name"] as? String, let joined = participant["joined_ms"] as? Int else { return nil }
            return (name, joined, participant["left_ms"] as? Int)
        }
        #expect(Set(stays.map(\.name)) == ["red", "blue", "voice"], "\(stays)")
        let frames = try await Self.decodedFrames(path, width: 1280, height: 720, everyMs: 500)
        var checked = 0
        for sampleMs in stride(from: 1000, to: durationMs - 500, by: 1000) {
            // Skip instants within a second of a join or leave: a tile moves then.
            let changes = stays.flatMap { [$0.joined] + ($0.left.map { [$0] } ?? []) }
            guard !changes.contains(where: { abs($0 - sampleMs) < 1000 }) else { continue }
            let present = stays.filter { $0.joined <= sampleMs && ($0.left.map { sampleMs < $0 } ?? true) }.map(\.name)
            guard let frame = frames.min(by: { abs($0.ms - Double(sampleMs)) < abs($1.ms - Double(sampleMs)) })?.frame else { continue }
            let layout = TileLayout(layout: .grid, canvasWidth: 1280, canvasHeight: 720, participants: present, speaker: nil)
            for name in present {
                let tile = try #require(layout.tile(named: name)).region
                if let colour = Self.colours[name] {
                    let region = TileLayout.fit(width: 640, height: 480, in: tile).middleHalf
                    let mean = try frame.meanColour(in: region)
                    let close = abs(mean.y - colour.y) <= 20 && abs(mean.u - colour.u) <= 20 && abs(mean.v - colour.v) <= 20
                    #expect(close, "\(name) at \(sampleMs) ms: mean \(mean), expected \(colour), present \(present)")
                } else {
                    let mean = try frame.meanColour(in: tile.middleHalf)
                    #expect(abs(mean.u - 138) <= 12 && abs(mean.v - 122) <= 12, "\(name)'s name tile at \(sampleMs) ms: \(mean)")
                }
                checked += 1
            }
        }
        #expect(checked >= 10, "only \(checked) tiles checked")

        // Every tone where its publisher was in the room.
        let pcm = try await RecordingChecks.run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:a", "-f", "s16le",
                                                                   "-ac", "1", "-ar", "48000", "-"]).data
        let samples: [Int16] = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        for stay in stays {
            let from = (stay.joined + 1000) * 48, to = min(((stay.left ?? durationMs) - 500) * 48, samples.count)
            guard from + 24_000 <= to, let tone = Self.tones[stay.name] else { continue }
            let window = samples[from..<to]
            let power = goertzelPower(window, frequency: tone)
            let off = goertzelPower(window, frequency: 1234)
            #expect(power > 50 * off, "\(stay.name)'s \(tone) Hz in the mix: \(power) vs \(off)")
        }
    }

    @Test("beeps and white frames emitted together are within 20 ms of each other in room.webm")
    func markersLineUp() async throws {
        try await SharedResourceLock.lab.withExclusive { try await checkMarkers() }
    }

    private func checkMarkers() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("composite-sync")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-composite-sync-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        // A 25 fps source pulsing every 2040 ms (51 frames) into a 30 fps composite: every source
        // picture shows (its 40 ms beats the output's 33.3 ms spacing), its one white frame
        // included, and each pulse falls 6.7 ms later on the output grid than the one before. Each
        // pair's offset is the systematic A/V offset plus where the flash fell on the grid (the
        // first output frame nearest the white picture: -20 to +13.3 ms); over 9 pulses the grid
        // part averages out (to about -3 ms), so the mean measures the sync itself. (A 30 fps
        // source into a 30 fps composite puts every flash at the same grid phase: the mean would
        // be the sync plus one fixed draw of up to ±16.7 ms.)
        let metronome = try await publisher(lab, room: room, display: "metronome", create: true,
                                            extra: ["--sync-pulse-ms", "2040", "--fps", "25"])
        defer { metronome.terminate() }
        let recording = try record(lab, room: room, out: out, seconds: 20, extra: ["--composite-fps", "30"])
        defer { recording.terminate() }
        try await pollUntil(timeout: .seconds(60), "agentd record to finish") { !recording.isRunning }
        #expect(recording.exitStatus == 0, "\(recording.stderr)")
        let path = out + "/room.webm"
        let beeps = try await AVSyncAnalysis.beepOnsets(path)
        let (whites, times) = try await AVSyncAnalysis.whiteFrameOnsets(path)
        let pairs = AVSyncAnalysis.pairs(beeps: beeps, whites: whites, limit: 0.1)
        for pair in pairs {
            print(String(format: "RecordComposite: beep %.4f s, white %.4f s, offset %+.1f ms", pair.audioSeconds, pair.videoSeconds, pair.offsetMs))
        }
        try #require(pairs.count >= 7, "only \(pairs.count) pairs (beeps \(beeps), whites \(whites), \(times.count) frames)")
        let mean = pairs.map(\.offsetMs).reduce(0, +) / Double(pairs.count)
        print(String(format: "RecordComposite: mean A/V offset %+.1f ms over %d pairs", mean, pairs.count))
        #expect(abs(mean) <= 20, "mean A/V offset \(mean) ms")
        // Each shown white picture is the first output frame nearest it (20 ms before to 13.3 ms
        // after it), plus the sync and the marker analysis's own resolution.
        #expect(pairs.allSatisfy { abs($0.offsetMs) <= 40 }, "\(pairs.map(\.offsetMs))")
    }

    @Test("speaker layout: the one who speaks holds the large tile within 1 s and keeps it through 300 ms pauses")
    func speakerHoldsTheLargeTile() async throws {
        try await SharedResourceLock.lab.withExclusive { try await checkSpeaker() }
    }

    private func checkSpeaker() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("composite-speaker")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-composite-speaker-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        // blue joins first and never speaks (a layout that kept the first one large would show
        // blue); red talks in 2.7 s stretches with 300 ms pauses.
        let blue = try await publisher(lab, room: room, display: "blue", create: true, extra: ["--no-audio"])
        defer { blue.terminate() }
        let red = try await publisher(lab, room: room, display: "red", create: false, extra: ["--tone-pattern", "2700,300"])
        defer { red.terminate() }
        let recording = try record(lab, room: room, out: out, seconds: 10, extra: ["--composite-layout", "speaker"])
        defer { recording.terminate() }
        try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
        #expect(recording.exitStatus == 0, "stderr: \(recording.stderr)")
        let path = out + "/room.webm"
        let durationMs = try #require(try Self.manifest(out)["duration_ms"] as? Int)
        let layout = TileLayout(layout: .speaker, canvasWidth: 1280, canvasHeight: 720, participants: ["blue", "red"], speaker: "red")
        let large = try #require(layout.tile(named: "red")).region
        let colour = try #require(Self.colours["red"])
        let picture = TileLayout.fit(width: 640, height: 480, in: large).middleHalf
        var held = 0
        var misses: [String] = []
        // Every 250 ms from 1 s on: a 300 ms pause falls between two samples at most once.
        for (ms, frame) in try await Self.decodedFrames(path, width: 1280, height: 720, everyMs: 250)
        where ms >= 1000 && ms <= Double(durationMs - 250) {
            let mean = try frame.meanColour(in: picture)
            if abs(mean.y - colour.y) <= 20 && abs(mean.u - colour.u) <= 20 && abs(mean.v - colour.v) <= 20 {
                held += 1
            } else {
                misses.append("\(Int(ms)) ms: \(mean)")
            }
        }
        print("RecordComposite: speaker: red held the large tile in \(held) samples, not in \(misses.count)")
        #expect(held >= 30, "red held the large tile in only \(held) samples")
        #expect(misses.isEmpty, "the large tile was not red at \(misses)")
    }

    // MARK: Helpers

    static func manifest(_ out: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// One decoded picture every `everyMs` (ffmpeg's fps filter picks them), with its time.
    static func decodedFrames(_ path: String, width: Int, height: Int, everyMs: Int) async throws -> [(ms: Double, frame: I420Frame)] {
        let raw = try await RecordingChecks.run("/usr/bin/ffmpeg", [
            "-nostdin", "-v", "error", "-i", path, "-map", "0:v", "-vf", "fps=\(1000 / everyMs)", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-",
        ]).data
        return try I420Frame.frames(rawYUV: [UInt8](raw), width: width, height: height).enumerated().map { index, frame in
            (Double(index * everyMs), frame)
        }
    }
}
