import Foundation

/// What ffprobe finds in one recorded WebM: the packets of each kind and the duration, so the
/// benchmark can say a subscriber really received each publisher (frames per second, not just
/// a file).
struct RecordingProbe: Sendable {
    var videoFrames = 0
    var audioPackets = 0
    var seconds = 0.0
    /// The file's mean bitrate (all tracks), bits per second.
    var bitsPerSecond = 0.0

    var videoFPS: Double { seconds > 0 ? Double(videoFrames) / seconds : 0 }
    var audioPacketsPerSecond: Double { seconds > 0 ? Double(audioPackets) / seconds : 0 }

    /// Nil when ffprobe is missing or cannot read the file.
    static func read(_ path: String, ffprobe: String = "/usr/bin/ffprobe") -> RecordingProbe? {
        guard
            let (status, output) = try? ToolOutput.run(
                ffprobe,
                ["-v", "error", "-count_packets", "-show_entries", "stream=codec_type,nb_read_packets:format=duration,bit_rate", "-of", "json", path]),
            status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        else { return nil }
        var probe = RecordingProbe()
        for stream in object["streams"] as? [[String: Any]] ?? [] {
            let packets = Int(stream["nb_read_packets"] as? String ?? "") ?? 0
            switch stream["codec_type"] as? String {
            case "video": probe.videoFrames += packets
            case "audio": probe.audioPackets += packets
            default: break
            }
        }
        let format = object["format"] as? [String: Any]
        probe.seconds = Double(format?["duration"] as? String ?? "") ?? 0
        probe.bitsPerSecond = Double(format?["bit_rate"] as? String ?? "") ?? 0
        return probe
    }
}
