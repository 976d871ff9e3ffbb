import Foundation
import TestSupport

/// The GStreamer webrtcbin peers (peers/gst/publisher.py, peers/gst/subscriber.py): a third
/// WebRTC stack beside aiortc and libwebrtc. They run with the system python3, where Debian's
/// python3-gst-1.0 lives (the aiortc venv does not see system packages), and keep their ICE on
/// the lab address they are given as LAB_HOST_IP.
enum GStreamerPeer {
    static let python = "/usr/bin/python3"

    /// A GStreamer publisher READY in `room`: a 440 Hz tone in Opus and a moving ball in
    /// `codec` (vp8, or h264 from `h264Encoder`: x264enc or openh264enc) at `size`.
    static func publisher(_ lab: LabEnvironment, room: String, display: String, codec: String = "vp8",
                          h264Encoder: String = "x264enc", size: String = "640x480", create: Bool = true,
                          roomVideoCodec: String = "vp8,vp9,h264", seconds: Int = 120) async throws -> ChildProcess {
        var arguments = [Repository.peer("gst/publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", display,
                         "--video-codec", codec, "--h264-encoder", h264Encoder, "--video", size,
                         "--duration", String(seconds)]
        if create { arguments += ["--create", "--room-videocodec", roomVideoCodec] }
        let process = try ChildProcess(python, arguments, name: "gst publisher \(display)", environment: environment(lab))
        _ = try await process.waitForLine(prefix: "READY", within: .seconds(60))
        return process
    }

    /// A GStreamer subscriber of the publisher named `feed`, decoding for `seconds` after READY
    /// into `out` (audio.wav, summary.json, and the received video re-muxed into `videoOut`).
    static func subscriber(_ lab: LabEnvironment, room: String, feed: String, out: String, seconds: Int,
                           videoOut: String? = nil) throws -> ChildProcess {
        var arguments = [Repository.peer("gst/subscriber.py"), "--ws", lab.janusWS, "--room", room, "--feed-display", feed,
                         "--out", out, "--duration", String(seconds), "--find-timeout", "20"]
        if let videoOut { arguments += ["--video-out", videoOut] }
        return try ChildProcess(python, arguments, name: "gst subscriber", environment: environment(lab))
    }

    /// The subscriber's summary.json.
    static func summary(_ out: String) throws -> Summary {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/summary.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ChildProcess.Failure(description: "summary.json is not an object: \(String(decoding: data, as: UTF8.self))")
        }
        return Summary(values: object, text: String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n", with: ""))
    }

    struct Summary {
        let values: [String: Any]
        let text: String
        func int(_ key: String) -> Int { values[key] as? Int ?? 0 }
        func string(_ key: String) -> String { values[key] as? String ?? "" }
    }

    private static func environment(_ lab: LabEnvironment) -> [String: String] {
        lab.hostIP.map { ["LAB_HOST_IP": $0] } ?? [:]
    }
}
