import Foundation
import TestSupport

/// What the recipe lab tests share: `agentd bot` as a child process in a fresh room, aiortc
/// peers beside it, and recipes written into a scratch directory (media from agentd-samples, never
/// from samples/).
struct RecipeLab {
    let lab: LabEnvironment
    let scratch: ScratchDirectory
    let room: String

    init(_ label: String) throws {
        lab = try LabEnvironment.required()
        scratch = try ScratchDirectory("recipe-\(label)")
        room = LabEnvironment.freshRoom(label)
    }

    var iceInterface: String { lab.values["LAB_IFACE"] ?? "agentd-lab0" }

    /// Writes `json` as `<name>.json` in the scratch directory and returns its path.
    func recipe(_ name: String, _ json: String) throws -> String {
        let path = scratch.path("\(name).json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `agentd bot RECIPE --server --room --create --duration --ice-allow`.
    func bot(_ recipe: String, seconds: Double, extra: [String] = []) throws -> ChildProcess {
        try ChildProcess(
            AgentdBinary.path,
            ["bot", recipe, "--server", lab.janusWS, "--room", room, "--create", "--duration", String(seconds), "--ice-allow", iceInterface] + extra,
            name: "agentd bot")
    }

    /// An aiortc subscriber of `display`'s feed recording `seconds` into `out` (audio.wav, data.jsonl).
    func subscriber(of display: String, out: String, seconds: Double) throws -> ChildProcess {
        try ChildProcess(
            Repository.python,
            [Repository.peer("subscriber.py"), "--ws", lab.janusWS, "--room", room, "--feed-display", display, "--out", out,
             "--duration", String(seconds), "--find-timeout", "20"],
            name: "aiortc subscriber")
    }

    /// An aiortc publisher sending a tone (no video, no data) as `display`.
    func publisher(_ display: String, tone: Int = 440, seconds: Double) throws -> ChildProcess {
        try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", display, "--create", "--no-video",
             "--tone", String(tone), "--data-interval-ms", "0", "--duration", String(seconds)],
            name: "aiortc publisher \(display)")
    }

    /// Waits for the subscriber to finish on its own, then checks it went well.
    static func finish(_ subscriber: ChildProcess, within limit: Duration = .seconds(40)) async throws {
        try await pollUntil(timeout: limit, "the subscriber to finish") { !subscriber.isRunning }
        guard subscriber.exitStatus == 0 else {
            throw ChildProcess.Failure(description: "subscriber exited \(String(describing: subscriber.exitStatus)): \(subscriber.stderr.suffix(1500))")
        }
    }

    /// Stops the bot with SIGTERM and returns its closing line (`agentd: recipe ...`).
    static func stop(_ bot: ChildProcess) async throws -> (status: Int32?, summary: String) {
        bot.send(signal: SIGTERM)
        try await pollUntil(timeout: .seconds(20), "agentd bot to stop") { !bot.isRunning }
        let summary = bot.stderr.split(separator: "\n").last { $0.hasPrefix("agentd: recipe ") }.map(String.init) ?? bot.stderr
        return (bot.exitStatus, summary)
    }

    /// RMS of each 100 ms window of 48 kHz samples.
    static func windowRMS(_ samples: [Int16], window: Int = 4_800) -> [Double] {
        stride(from: 0, to: samples.count - window + 1, by: window).map { start in
            RecordingChecks.rms(samples[start..<(start + window)])
        }
    }
}
