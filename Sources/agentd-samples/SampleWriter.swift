import Agent
import BotKit
import Foundation
import Recorder

/// Writes the requested samples into one directory. Each file is written under a temporary name
/// and renamed into place when complete, so an interrupted run never leaves a half-written sample
/// where a script that skips existing files would keep it.
struct SampleWriter {
    static let seconds = PatternVideo.seconds
    /// The plain tone's level: half of full scale, like scripts/make-samples' `sox ... vol 0.5`.
    static let toneAmplitude = 0.5
    /// Under the beeps, the tone is quieter so a beep's onset stands out as a step.
    static let toneUnderBeepsAmplitude = 0.25

    let directory: URL

    /// Writes `names` and returns each written file's path and size.
    func write(_ names: [SampleName]) throws -> [(path: String, bytes: Int64)] {
        let video = try names.contains(where: \.needsVideo) ? encodeVideo() : nil
        var written: [(String, Int64)] = []
        for name in names {
            let path = try writeAtomically(name) { temporary in
                switch name {
                case .patternIVF: try writeIVF(video, to: temporary)
                case .patternWebM: try writeWebM(video, to: temporary)
                case .toneOpus: try writeOggOpus(to: temporary)
                }
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
            written.append((path, size?.int64Value ?? 0))
        }
        return written
    }

    private func encodeVideo() throws -> PatternVideo {
        do {
            return try PatternVideo.encode()
        } catch {
            throw SamplesError.failed(sample: "the test pattern", reason: "\(error)")
        }
    }

    private func writeIVF(_ video: PatternVideo?, to path: String) throws {
        guard let video else { throw SamplesError.failed(sample: path, reason: "no video encoded") }
        // A 1/fps timebase (pts = frame number), as libvpx's own tools write: ffmpeg reads the
        // header's frame count as the duration in that timebase.
        let fps = Int64(PatternVideo.framesPerSecond)
        let writer = try IVFWriter(path: path, codec: .vp8, width: PatternVideo.width, height: PatternVideo.height,
                                   timebaseNumerator: 1, timebaseDenominator: UInt32(fps))
        for frame in video.frames { try writer.write(frame.data, pts: frame.pts * fps / 90_000) }
        try writer.close()
    }

    private func writeWebM(_ video: PatternVideo?, to path: String) throws {
        guard let video else { throw SamplesError.failed(sample: path, reason: "no video encoded") }
        let audio = try ToneAudio.encode(seconds: Self.seconds, amplitude: Self.toneUnderBeepsAmplitude, withSyncMarks: true)
        try PatternWebM.write(video: video, audio: audio, to: path)
    }

    private func writeOggOpus(to path: String) throws {
        let audio = try ToneAudio.encode(seconds: Self.seconds, amplitude: Self.toneAmplitude, withSyncMarks: false)
        let writer = try OggOpusWriter(sink: FileByteSink(path: path), channels: 1, preSkip: UInt16(clamping: audio.preSkip))
        for packet in audio.packets { try writer.write(packet: packet) }
        try writer.close()
    }

    /// Runs `body` on `.tmp-<name>` in the directory, then renames it to `<name>`. On failure the
    /// temporary file is removed and the error names the sample.
    private func writeAtomically(_ name: SampleName, _ body: (String) throws -> Void) throws -> String {
        let final = directory.appendingPathComponent(name.rawValue).path
        let temporary = directory.appendingPathComponent(".tmp-\(name.rawValue)").path
        do {
            try body(temporary)
            guard rename(temporary, final) == 0 else {
                throw SamplesError.failed(sample: name.rawValue, reason: "rename: \(String(cString: strerror(errno)))")
            }
            return final
        } catch let error as SamplesError {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw SamplesError.failed(sample: name.rawValue, reason: "\(error)")
        }
    }
}
