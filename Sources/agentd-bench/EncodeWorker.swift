import Agent
import BotKit
import Foundation

/// `agentd-bench encode-worker`, started by `agentd-bench encode` (not by hand): one process
/// publishing N BotKit VideoTracks, each through a Bot of its own (the bots share the process's
/// transport loops, as agentd's do), fed MovingSquare frames by
/// one `FramePusher` per track. Prints `READY` once every bot publishes and frames flow, and on
/// SIGTERM/SIGINT (or after --duration) a `STATS {json}` line with each track's counters, then
/// leaves the room.
struct EncodeWorker {
    var server = ""
    var room = ""
    var streams = 1
    var prefix = "agentd"
    var width = 640
    var height = 480
    var fps = 30
    var bitrate = 1_000_000
    var speed = 8
    var iceAllow = "agentd-lab0"
    var token: String?
    var duration = 3600.0

    init(arguments: [String]) throws(BenchError) {
        var cursor = ArgumentCursor(arguments)
        while let argument = cursor.next() {
            switch argument {
            case "--server": server = try cursor.value(argument)
            case "--room": room = try cursor.value(argument)
            case "--streams": streams = try cursor.integer(argument, in: 1...16)
            case "--display-prefix": prefix = try cursor.value(argument)
            case "--size": (width, height) = try cursor.size(argument)
            case "--fps": fps = try cursor.integer(argument, in: 1...60)
            case "--bitrate": bitrate = try cursor.integer(argument, in: 10_000...100_000_000)
            case "--speed": speed = try cursor.integer(argument, in: 1...16)
            case "--ice-allow": iceAllow = try cursor.value(argument)
            case "--token": token = try cursor.value(argument)
            case "--duration": duration = try cursor.number(argument)
            default: throw BenchError("encode-worker: unknown option '\(argument)'")
            }
        }
        guard !server.isEmpty, !room.isEmpty else { throw BenchError("encode-worker needs --server and --room") }
    }

    /// The display name of track `index` (from 0): what the benchmark looks for in the room.
    static func display(prefix: String, index: Int) -> String { "\(prefix)-\(index + 1)" }

    func run() async throws -> String {
        let addresses = try ICEAllowList(parsing: iceAllow).resolve()
        let square = try MovingSquare(width: width, height: height)
        let loops = LoopGroup()
        var bots: [Bot] = []
        var tracks: [VideoTrack] = []
        defer { tracks.forEach { $0.close() } }
        for index in 0..<streams {
            let track = try VideoTrack(configuration: .init(bitrate: bitrate, framesPerSecond: fps, speed: speed))
            let bot = Bot(
                configuration: BotConfiguration(
                    server: server, room: room, display: Self.display(prefix: prefix, index: index), token: token,
                    iceAddresses: addresses, listens: false),
                engine: AgentEngine(group: loops))
            bots.append(bot)
            tracks.append(track)
            try await bot.start(BotMedia(videoTrack: track))
        }
        let started = ContinuousClock.now
        let pushers = tracks.enumerated().map { index, track in
            FramePusher(track: track, square: square, framesPerSecond: fps, name: "encode-\(index + 1)")
        }
        Console.line("READY")
        await StopRequest.wait(atMost: duration)
        pushers.forEach { $0.stop() }
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let stats = zip(tracks, pushers).map { track, pusher -> [String: Any] in
            let statistics = track.statistics
            return [
                "pushed": statistics.framesPushed, "encoded": statistics.framesEncoded, "sent": statistics.framesSent,
                "droppedForRate": statistics.framesDroppedForRate, "droppedByEncoder": statistics.framesDroppedByEncoder,
                "keyframes": statistics.keyframes, "bytes": statistics.bytes, "skipped": pusher.skipped,
            ]
        }
        for bot in bots { await bot.stop() }
        let object: [String: Any] = ["seconds": elapsed, "tracks": stats]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs the worker; the exit status for `main`.
    static func main(arguments: [String]) async -> Int32 {
        do {
            let stats = try await EncodeWorker(arguments: arguments).run()
            Console.line("STATS " + stats)
            return 0
        } catch let error as BenchError {
            Console.error("encode-worker: \(error.description)")
        } catch {
            Console.error("encode-worker: \(error)")
        }
        return 1
    }
}
