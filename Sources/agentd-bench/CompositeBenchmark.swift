import Agent
import Foundation
import Recorder

/// `agentd-bench composite`: CPU per composited participant, agentd's compositor beside ffmpeg's
/// xstack doing the same from the same streams, in one run (issue 14).
struct CompositeBenchmark {
    let options: CompositeOptions
    static let canvas = (width: 1280, height: 720)

    func run() throws(BenchError) {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-bench-composite-\(getpid())").path
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create \(work): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: work) }
        let source = "\(options.sourceSize.width)x\(options.sourceSize.height)"
        Console.line(MachineInfo.current().line)
        Console.line("sources: N participants of VP8 \(source)@30, 600 kb/s (I420Frame test pattern), \(Int(options.seconds)) s each, made before timing")
        Console.line("agentd: RoomCompositor, grid 1280x720, libvpx VP8 decode (1 thread) + libyuv scale + VP8 encode (realtime speed 8, 1 thread), fed as fast as it goes")
        Console.line("anchor: \(options.ffmpeg) -threads 1 per input, scale to the same tiles, xstack, fps, libvpx -deadline realtime -cpu-used 8 -threads 1, same bitrate")
        Console.line("figure: CPU % of one core per participant while compositing one media second (lower is better)")
        Console.line()
        var rows = [["fps", "N", "agentd %/participant", "ffmpeg xstack %/participant", "agentd/ffmpeg", "agentd speed", "ffmpeg speed"]]
        let largest = options.participants.max() ?? 1
        let streams = try (0..<largest).map { index throws(BenchError) in try Self.encodeSource(index: index, options: options) }
        let files = try streams.enumerated().map { index, frames throws(BenchError) in
            try Self.writeWebM(frames, path: "\(work)/p\(index).webm", size: options.sourceSize)
        }
        for rate in options.rates {
            for count in options.participants {
                let settings: CompositeSettings
                do { settings = try CompositeSettings(width: Self.canvas.width, height: Self.canvas.height, framesPerSecond: rate) } catch {
                    throw BenchError("\(error)")
                }
                let ours = try Self.composite(Array(streams.prefix(count)), settings: settings, path: "\(work)/agentd-\(rate)-\(count).webm")
                let theirs = try Self.ffmpegStack(Array(files.prefix(count)), settings: settings, options: options,
                                                  path: "\(work)/ffmpeg-\(rate)-\(count).webm")
                let media = options.seconds
                let oursPercent = ours.cpu / media / Double(count) * 100
                let theirsPercent = theirs.cpu / media / Double(count) * 100
                rows.append([String(rate), String(count), String(format: "%.1f", oursPercent), String(format: "%.1f", theirsPercent),
                             String(format: "%.2f", oursPercent / max(0.001, theirsPercent)),
                             String(format: "%.1fx", media / max(0.001, ours.wall)), String(format: "%.1fx", media / max(0.001, theirs.wall))])
                Console.line(TextTable.lines(rows).last ?? "")
            }
        }
        Console.line()
        for line in TextTable.lines(rows) { Console.line(line) }
    }

    /// One participant's VP8 frames at 30 fps: (ms, frame).
    static func encodeSource(index: Int, options: CompositeOptions) throws(BenchError) -> [(ms: Int64, frame: VPXEncodedFrame)] {
        do {
            let encoder = try VPXEncoder(configuration: .init(codec: .vp8, bitrate: 600_000, framesPerSecond: 30, errorResilient: false))
            let patterns = try (0..<30).map { try I420Frame.testPattern(width: options.sourceSize.width, height: options.sourceSize.height, frameIndex: $0 + index * 7) }
            let count = Int(options.seconds * 30)
            return try (0..<count).flatMap { frame in
                try encoder.encode(patterns[frame % patterns.count], pts: Int64(frame) * 3000).map { (Int64(frame) * 1000 / 30, $0) }
            }
        } catch {
            throw BenchError("encoding the source: \(error)")
        }
    }

    static func writeWebM(_ frames: [(ms: Int64, frame: VPXEncodedFrame)], path: String, size: (width: Int, height: Int)) throws(BenchError) -> String {
        do {
            let writer = try WebMWriter(path: path, tracks: [.video(number: 1, codec: .vp8, width: size.width, height: size.height)])
            for (ms, frame) in frames { try writer.write(track: 1, timestampMs: ms, keyframe: frame.isKeyframe, frame: frame.data) }
            try writer.close()
            return path
        } catch {
            throw BenchError("writing \(path): \(error)")
        }
    }

    /// CPU seconds (user + system) this process used while `body` ran, and the wall seconds.
    static func measured(_ body: () throws(BenchError) -> Void, children: Bool = false) throws(BenchError) -> (cpu: Double, wall: Double) {
        func cpu() -> Double {
            var usage = rusage()
            getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let (startCPU, start) = (cpu(), Date())
        try body()
        return (cpu() - startCPU, Date().timeIntervalSince(start))
    }

    static func composite(_ streams: [[(ms: Int64, frame: VPXEncodedFrame)]], settings: CompositeSettings,
                          path: String) throws(BenchError) -> (cpu: Double, wall: Double) {
        // Every frame of every participant in time order, as the recorder would hand them over.
        let timeline = streams.enumerated().flatMap { index, frames in frames.map { (index, $0.ms, $0.frame) } }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        let compositor = RoomCompositor(path: path, settings: settings, queueCapacity: timeline.count + 16)
        let result = try measured { () throws(BenchError) in
            for index in streams.indices { compositor.join("p\(index)", display: "participant \(index)", atMs: 0) }
            for (index, ms, encoded) in timeline {
                let frame = RemoteFrame(participantID: "p\(index)", kind: .video, codec: .vp8, bytes: encoded.data, isKeyframe: encoded.isKeyframe,
                                        rtpTimestamp: ms * 90, clockRate: 90_000, wallTimeNanoseconds: ms * 1_000_000, mappedBySenderReport: true)
                compositor.add(frame, atMs: ms, audio: [], from: "p\(index)")
            }
            compositor.finish(atMs: streams.map { ($0.last?.ms ?? 0) + 33 }.max() ?? 0)
        }
        if let error = compositor.error { throw BenchError("compositor: \(error)") }
        guard compositor.framesDropped == 0 else { throw BenchError("the compositor dropped \(compositor.framesDropped) frames") }
        return result
    }

    static func ffmpegStack(_ files: [String], settings: CompositeSettings, options: CompositeOptions,
                            path: String) throws(BenchError) -> (cpu: Double, wall: Double) {
        let layout = TileLayout(layout: .grid, canvasWidth: settings.width, canvasHeight: settings.height,
                                participants: files.indices.map { "p\($0)" }, speaker: nil)
        var filters: [String] = []
        var positions: [String] = []
        for (index, tile) in layout.tiles.enumerated() {
            let fitted = TileLayout.fit(width: options.sourceSize.width, height: options.sourceSize.height, in: tile.region)
            // The rate first, as the compositor scales only the pictures it shows.
            filters.append("[\(index):v]fps=\(settings.framesPerSecond),scale=\(fitted.width):\(fitted.height)[s\(index)]")
            positions.append("\(fitted.x)_\(fitted.y)")
        }
        let inputs = files.indices.map { "[s\($0)]" }.joined()
        let stack = files.count == 1
            ? "[s0]pad=\(settings.width):\(settings.height):\(positions[0].replacingOccurrences(of: "_", with: ":"))[out]"
            : "\(inputs)xstack=inputs=\(files.count):layout=\(positions.joined(separator: "|")):fill=black,"
                + "pad=\(settings.width):\(settings.height)[out]"
        var arguments = ["-nostdin", "-v", "error", "-y"]
        for file in files { arguments += ["-threads", "1", "-i", file] }
        arguments += ["-filter_complex", (filters + [stack]).joined(separator: ";"), "-filter_threads", "1", "-map", "[out]",
                      "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", String(settings.bitrate), "-threads", "1", path]
        return try measured({ () throws(BenchError) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: options.ffmpeg)
            process.arguments = arguments
            do { try process.run() } catch { throw BenchError("ffmpeg: \(error)") }
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchError("ffmpeg exited \(process.terminationStatus): \(arguments.joined(separator: " "))") }
        }, children: true)
    }
}
