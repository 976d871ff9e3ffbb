import Foundation

/// Options of `agentd-bench composite`: offline, no lab (the compositor is fed in process).
struct CompositeOptions: Sendable {
    var participants: [Int] = [1, 2, 4]
    var rates: [Int] = [15, 30]
    var seconds = 20.0
    var sourceSize = (width: 640, height: 480)
    var ffmpeg = "/usr/bin/ffmpeg"

    static let usage = """
        usage: agentd-bench composite [--participants 1,2,4] [--fps 15,30] [--seconds 20] [--source WxH] [--ffmpeg PATH]

          Composites N participants' VP8 (30 fps test pattern at --source size, made beforehand)
          into a 1280x720 grid at each --fps with agentd's compositor (decode, libyuv scale, one
          VP8 encode, libvpx realtime speed 8, one thread) as fast as it goes, and, in the same run,
          with ffmpeg from the same streams as per-participant WebM files (decode, scale, xstack,
          libvpx realtime cpu-used 8, one thread). Prints CPU % of one core per participant per
          media second for both, with their ratio. Video only on both sides. Needs no lab.
        """

    init(arguments: [String]) throws(BenchError) {
        var cursor = ArgumentCursor(arguments)
        while let argument = cursor.next() {
            switch argument {
            case "--participants": participants = try cursor.counts(argument, in: 1...16)
            case "--fps": rates = try cursor.counts(argument, in: 1...60)
            case "--seconds":
                seconds = try cursor.number(argument)
                guard seconds >= 2, seconds <= 600 else { throw BenchError("--seconds must be 2-600") }
            case "--source": sourceSize = try cursor.size(argument)
            case "--ffmpeg": ffmpeg = try cursor.value(argument)
            case "-h", "--help":
                Console.line(Self.usage)
                exit(0)
            default: throw BenchError("unknown option '\(argument)' (see agentd-bench composite --help)")
            }
        }
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else { throw BenchError("no ffmpeg at \(ffmpeg) (--ffmpeg)") }
    }
}
