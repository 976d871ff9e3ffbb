import Foundation

/// Options of `agentd-bench play` and `agentd-bench encode`: N of our publishers beside N aiortc
/// publishers in one room, per N. The shared lab options read through to `run`.
@dynamicMemberLookup
struct PublishOptions: Sendable {
    enum Mode: String, Sendable { case play, encode }

    let mode: Mode
    var run = LabRunOptions(seconds: 30, warmup: 5)
    var streams: [Int] = [1, 2, 4]
    // play
    var kinds: [StreamKind] = [.av, .audio, .video]
    var audio: String?
    var video: String?
    var clipKbps = 1000
    var aiortcDecodes = true
    // encode
    var width = 640
    var height = 480
    var fps = 30
    var bitrate = 1_000_000
    var speed = 8

    static func usage(_ mode: Mode) -> String {
        switch mode {
        case .play:
            """
            usage: agentd-bench play [--streams 1,2,4] [--kinds av,audio,video] [--seconds 30] [--warmup 5]
                                     [--audio FILE.opus] [--video FILE.ivf] [--clip-kbps 1000] [--aiortc-no-decode]
                                     \(LabRunOptions.usage)

              Pass-through publishing: per N, N `agentd play --loop` processes (one stream each) and, in the
              same room at the same time, N aiortc publishers on MediaPlayer (peers/player.py: decodes the
              files and re-encodes them; --aiortc-no-decode sends the stored packets instead). One stream =
              one audio + one video track (kind av); kinds audio and video run one track each. Without
              --audio/--video a 10 s Opus tone and a 10 s 640x480@30 VP8 IVF are made with ffmpeg.
              One `agentd record` in the room checks that every publisher is received.
            """
        case .encode:
            """
            usage: agentd-bench encode [--streams 1,2,4] [--seconds 30] [--warmup 5] [--size 640x480] [--fps 30]
                                       [--bitrate 1000000] [--speed 8]
                                       \(LabRunOptions.usage)

              Live VP8 encoding: per N, one process publishing N BotKit VideoTracks (one Bot each) fed with
              MovingSquare frames, and in the same room at the same time N aiortc publishers encoding their
              own moving square (peers/publisher.py --no-audio). One `agentd record` in the room checks
              that every publisher is received.
            """
        }
    }

    subscript<Value>(dynamicMember path: KeyPath<LabRunOptions, Value>) -> Value { run[keyPath: path] }

    init(mode: Mode, arguments: [String]) throws(BenchError) {
        self.mode = mode
        var cursor = ArgumentCursor(arguments)
        while let argument = cursor.next() {
            if try run.accept(argument, from: &cursor) { continue }
            switch (mode, argument) {
            case (_, "--streams"): streams = try cursor.counts(argument, in: 1...16)
            case (.play, "--kinds"): kinds = try StreamKind.parseList(try cursor.value(argument))
            case (.play, "--audio"): audio = try cursor.value(argument)
            case (.play, "--video"): video = try cursor.value(argument)
            case (.play, "--clip-kbps"): clipKbps = try cursor.integer(argument, in: 50...20_000)
            case (.play, "--aiortc-no-decode"): aiortcDecodes = false
            case (.encode, "--size"): (width, height) = try cursor.size(argument)
            case (.encode, "--fps"): fps = try cursor.integer(argument, in: 1...60)
            case (.encode, "--bitrate"): bitrate = try cursor.integer(argument, in: 10_000...100_000_000)
            case (.encode, "--speed"): speed = try cursor.integer(argument, in: 1...16)
            case (_, "-h"), (_, "--help"):
                Console.line(Self.usage(mode))
                exit(0)
            default: throw BenchError("unknown option '\(argument)' (see agentd-bench \(mode.rawValue) --help)")
            }
        }
        for path in [audio, video].compactMap({ $0 }) where !FileManager.default.isReadableFile(atPath: path) {
            throw BenchError("cannot read \(path)")
        }
        try run.validate(scripts: mode == .play ? ["player.py"] : ["publisher.py"])
    }
}
