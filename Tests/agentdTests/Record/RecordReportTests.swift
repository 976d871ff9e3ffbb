import Agent
import Foundation
import RecordingReport
import TestSupport
import Testing

/// Issue 14's report acceptance: `agentd record` against the lab with three aiortc publishers
/// whose tones sound on known on/off patterns (two with video, one audio-only; one leaves
/// early), then report.json's speaking times against the patterns, and report.html opened in
/// headless Chromium inside the lab: it renders (the screenshot is not blank), every name is in
/// the DOM, and the timeline has one row per participant.
@Suite("RecordReport", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecordReportTests {
    /// Tone on, tone off (ms), per publisher, and whether it sends video.
    static let publishers: [(display: String, tone: Int, onMs: Int64, offMs: Int64, video: Bool)] = [
        ("alice", 440, 1500, 1000, true), ("bob", 660, 1000, 1500, false), ("carol", 880, 2000, 700, true),
    ]

    @Test("speaking times match the tone patterns within 0.5 s; report.html renders in Chromium with every name and one row each")
    func reportOfALabRecording() async throws {
        try await SharedResourceLock.lab.withExclusive { try await recordAndReport() }
    }

    private func publisher(_ lab: LabEnvironment, room: String, index: Int) async throws -> ChildProcess {
        let spec = Self.publishers[index]
        var arguments = [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", spec.display,
                         "--tone", String(spec.tone), "--tone-pattern", "\(spec.onMs),\(spec.offMs)", "--duration", "180"]
        if index == 0 { arguments.append("--create") }
        if !spec.video { arguments.append("--no-video") }
        let process = try ChildProcess(Repository.python, arguments, name: spec.display)
        _ = try await process.waitForLine(prefix: "READY", within: .seconds(90))
        return process
    }

    private func recordAndReport() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("report")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-report-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        var processes: [ChildProcess] = []
        defer { processes.forEach { $0.terminate() } }
        for index in Self.publishers.indices { processes.append(try await publisher(lab, room: room, index: index)) }

        let recording = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--duration", "14", "--formats", "webm,wav",
             "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"],
            name: "agentd record")
        defer { recording.terminate() }
        try await pollUntil(timeout: .seconds(10), "the recording to start") { FileManager.default.fileExists(atPath: out + "/manifest.json") }
        // The scenario: carol leaves about 7 s in.
        try await Task.sleep(for: .seconds(7))
        await processes[2].terminate()
        try await pollUntil(timeout: .seconds(45), "agentd record to finish") { !recording.isRunning }
        #expect(recording.exitStatus == 0, "stderr: \(recording.stderr)")

        // report.json, written at stop.
        let report = try JSONDecoder().decode(RecordingReport.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        #expect(Set(report.participants.map(\.name)) == Set(Self.publishers.map(\.display)))
        for spec in Self.publishers {
            let participant = try #require(report.participants.first { $0.name == spec.display })
            let expected = Self.expectedSpeakingMs(participant, onMs: spec.onMs, offMs: spec.offMs, durationMs: report.durationMs)
            print("\(spec.display): spoke \(participant.speakingMs) ms, pattern \(expected) ms, intervals \(participant.speaking)")
            #expect(abs(participant.speakingMs - expected) <= 500, "\(spec.display): \(participant.speakingMs) ms for \(expected) ms")
            for span in participant.speaking.dropFirst().dropLast() {
                #expect(abs(span.durationMs - spec.onMs) <= 150, "\(spec.display): an interval of \(span.durationMs) ms for \(spec.onMs)")
            }
            #expect(((participant.videoFrames ?? 0) > 0) == spec.video, "\(spec.display): \(String(describing: participant.videoFrames)) video frames")
        }
        #expect(report.participants.first { $0.name == "carol" }?.leftMs != nil)

        // report.html in headless Chromium, inside the lab namespace.
        let shot = out + "/report-screenshot.png"
        let render = try ChildProcess("/usr/bin/python3", [Repository.peer("chromium/render.py"), "--file", out + "/report.html", "--screenshot", shot],
                                      name: "render")
        defer { render.terminate() }
        let line = try await render.waitForLine(prefix: "RENDERED ", within: .seconds(90))
        let dom = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst("RENDERED ".count).utf8)) as? [String: Any])
        #expect(dom["rows"] as? Int == Self.publishers.count, "\(dom)")
        let names = dom["names"] as? [String] ?? []
        let text = dom["text"] as? String ?? ""
        for spec in Self.publishers {
            #expect(names.contains(spec.display), "\(spec.display) not in the timeline: \(names)")
            #expect(text.contains(spec.display), "\(spec.display) not in the page text")
        }
        #expect(dom["images"] as? Int == 2 && dom["broken_images"] as? Int == 0, "thumbnails: \(dom)")
        let colours = try await Self.screenshotColours(shot)
        #expect(colours.distinct > 20, "the screenshot is blank or nearly: \(colours.distinct) colours")
        #expect(colours.speakingPixels > 100, "no speaking block drawn: \(colours.speakingPixels) pixels of its green")
    }

    /// The pattern's tone time from the participant's first speech to their leaving or the
    /// recording's end. The publisher started before the recording, so the first interval may be
    /// cut short: the pattern's phase is taken from the second interval (a whole one).
    static func expectedSpeakingMs(_ participant: ParticipantReport, onMs: Int64, offMs: Int64, durationMs: Int64) -> Int64 {
        guard let first = participant.speaking.first else { return 0 }
        let anchor = participant.speaking.count > 1 ? participant.speaking[1].startMs : first.startMs
        let period = onMs + offMs
        let end = participant.leftMs ?? durationMs
        var on = anchor - ((anchor - first.startMs) / period + 1) * period
        var total: Int64 = 0
        while on < end {
            total += max(0, min(on + onMs, end) - max(on, first.startMs))
            on += period
        }
        return total
    }

    /// How many distinct colours the screenshot has (a blank page has one or two), and how many
    /// of its pixels are the timeline's speaking green (#2e9e5b), both read with ffmpeg.
    static func screenshotColours(_ path: String) async throws -> (distinct: Int, speakingPixels: Int) {
        let raw = path + ".rgb"
        let decode = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        #expect(decode.status == 0, "\(decode.errors)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        var colours = Set<UInt32>()
        var green = 0
        var index = 0
        while index + 2 < bytes.count {
            let (red, greenChannel, blue) = (bytes[index], bytes[index + 1], bytes[index + 2])
            colours.insert(UInt32(red) << 16 | UInt32(greenChannel) << 8 | UInt32(blue))
            if abs(Int(red) - 0x2E) < 12, abs(Int(greenChannel) - 0x9E) < 12, abs(Int(blue) - 0x5B) < 12 { green += 1 }
            index += 3
        }
        return (colours.count, green)
    }
}
