import Foundation
import TestSupport

/// Measures audio/video sync in a recorded WebM whose publisher beeps and shows a white frame at
/// the same media instant (peers/publisher.py `--sync-pulse-ms`).
///
/// Both onsets are read from the file's own timestamps, decoded by ffmpeg, so the figure is what
/// a player of our WebM would show:
/// - audio: the decoded samples (mono, 48 kHz) are placed by the pts of the decoded frames they
///   came from (ffprobe), so a gap between audio blocks cannot shift later samples; a beep onset
///   is where a 1 ms moving mean of |sample| crosses half the loudest beep's level (for a step
///   that is the step itself, to within a sample);
/// - video: each decoded frame (scaled to 64x48 gray) is timed by its own pts; a white-frame onset
///   is a frame whose mean luma is above the midpoint between the usual picture and white while
///   the frame before it is below. Frames are 33 ms apart, so one pair is only known to ±17 ms:
///   the verdict uses the mean over all pairs.
enum AVSyncAnalysis {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Pair {
        let audioSeconds: Double
        let videoSeconds: Double
        var offsetMs: Double { (audioSeconds - videoSeconds) * 1000 }
    }

    static let sampleRate = 48_000
    static let videoWidth = 64
    static let videoHeight = 48

    /// Runs a tool and returns its stdout; stderr is kept apart so binary output stays clean.
    static func output(_ tool: String, _ arguments: [String]) async throws -> Data {
        let run = try await runTool(tool, arguments)
        guard run.status == 0 else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(run.status)")
        }
        return run.data
    }

    /// One number per line of ffprobe's csv output for stream `selector`'s decoded frames.
    static func frameEntries(_ path: String, stream selector: String, entries: String) async throws -> [[Double]] {
        let text = String(decoding: try await output("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", selector, "-show_entries", "frame=\(entries)", "-of", "csv=p=0", path,
        ]), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            return fields.isEmpty ? nil : fields
        }
    }

    /// Beep onsets in seconds of the file's timeline.
    static func beepOnsets(_ path: String) async throws -> [Double] {
        let raw = try await output("/usr/bin/ffmpeg", [
            "-nostdin", "-v", "error", "-i", path, "-map", "0:a", "-f", "s16le", "-ac", "1", "-ar", "\(sampleRate)", "-",
        ])
        let samples: [Int16] = raw.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        // (pts, nb_samples) of each decoded frame, in the order ffmpeg wrote their samples.
        let frames = try await frameEntries(path, stream: "a:0", entries: "best_effort_timestamp_time,nb_samples")
            .filter { $0.count == 2 }
        var starts: [(sample: Int, seconds: Double)] = []
        var total = 0
        for frame in frames {
            starts.append((total, frame[0]))
            total += Int(frame[1])
        }
        guard !starts.isEmpty, abs(total - samples.count) <= 960 else {
            throw Failure(description: "ffprobe counts \(total) audio samples, ffmpeg decoded \(samples.count)")
        }
        func seconds(ofSample index: Int) -> Double {
            var low = 0, high = starts.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if starts[mid].sample <= index { low = mid } else { high = mid - 1 }
            }
            return starts[low].seconds + Double(index - starts[low].sample) / Double(sampleRate)
        }

        let window = sampleRate / 1000
        guard samples.count > window else { return [] }
        var prefix = [Int64](repeating: 0, count: samples.count + 1)
        for (index, sample) in samples.enumerated() { prefix[index + 1] = prefix[index] + Int64(abs(Int32(sample))) }
        let envelope = (0...(samples.count - window)).map { Double(prefix[$0 + window] - prefix[$0]) / Double(window) }
        guard let loudest = envelope.max(), loudest > 1000 else { return [] }
        let threshold = loudest / 2
        var onsets: [Double] = []
        var lastLoud: Int?
        for (index, level) in envelope.enumerated() where level >= threshold {
            // A beep starts after at least half a second below the threshold.
            if lastLoud.map({ index - $0 >= sampleRate / 2 }) ?? true {
                onsets.append(seconds(ofSample: index + window / 2))
            }
            lastLoud = index
        }
        return onsets
    }

    /// White-frame onsets: the pts (seconds) of each frame that turns white.
    static func whiteFrameOnsets(_ path: String) async throws -> (onsets: [Double], times: [Double]) {
        let raw = try await output("/usr/bin/ffmpeg", [
            "-nostdin", "-v", "error", "-i", path, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "gray",
            "-s", "\(videoWidth)x\(videoHeight)", "-fps_mode", "passthrough", "-",
        ])
        let times = try await frameEntries(path, stream: "v:0", entries: "best_effort_timestamp_time").map { $0[0] }
        let frameBytes = videoWidth * videoHeight
        let count = raw.count / frameBytes
        guard count == times.count, count > 0 else {
            throw Failure(description: "ffmpeg decoded \(count) video frames, ffprobe timed \(times.count)")
        }
        let lumas: [Double] = raw.withUnsafeBytes { buffer in
            (0..<count).map { frame in
                let bytes = buffer[(frame * frameBytes)..<((frame + 1) * frameBytes)]
                return Double(bytes.reduce(0) { $0 + Int($1) }) / Double(frameBytes)
            }
        }
        let usual = lumas.sorted()[count / 2]
        guard let brightest = lumas.max(), brightest - usual > 60 else { return ([], times) }
        let threshold = (usual + brightest) / 2
        var onsets: [Double] = []
        for index in 1..<count where lumas[index] >= threshold && lumas[index - 1] < threshold {
            onsets.append(times[index])
        }
        return (onsets, times)
    }

    /// Frame-to-frame steps outside 10...100 ms (a ~30 fps track has none unless its timeline
    /// jumped or frames were lost), as (time before, time after) pairs, for the log.
    static func timelineBreaks(_ times: [Double]) -> [(Double, Double)] {
        zip(times, times.dropFirst()).filter { $1 - $0 < 0.010 || $1 - $0 > 0.100 }
    }

    /// Each beep with the nearest white-frame onset, if one is within `limit` seconds.
    static func pairs(beeps: [Double], whites: [Double], limit: Double = 0.5) -> [Pair] {
        beeps.compactMap { beep in
            guard let nearest = whites.min(by: { abs($0 - beep) < abs($1 - beep) }), abs(nearest - beep) <= limit else {
                return nil
            }
            return Pair(audioSeconds: beep, videoSeconds: nearest)
        }
    }
}
