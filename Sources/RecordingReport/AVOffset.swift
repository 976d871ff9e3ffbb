import Recorder

/// A participant's audio/video offset as the manifest tells it. The recorder places each track
/// by its first frames' arrival, then, once both streams' RTCP sender reports came (RFC 3550
/// §6.4.1: the sender's NTP time for an RTP time of each), moves video by how far the two
/// placements disagree with the reports (`av_shift_ms`). That shift is the offset the network
/// and the sender's encoders put between the streams, and what a player of the file no longer
/// sees. Without a sender report for one of them it cannot be told.
enum AVOffset {
    /// The offset (ms; positive: video arrived behind its audio, and the recorder moved it back
    /// by as much, so it is `-av_shift_ms`) and how it was found:
    /// `sender_reports`, `arrival_only`, `no_video` or `no_audio`. The last file with both
    /// tracks counts (after a reconnect the recorder aligns again).
    static func estimate(_ files: [RecordingManifest.File]) -> (Int64?, String) {
        let media = files.filter { $0.format == "webm" }
        let tracks = media.flatMap(\.tracks)
        guard tracks.contains(where: { $0.kind == .video }) else { return (nil, "no_video") }
        guard tracks.contains(where: { $0.kind == .audio }) else { return (nil, "no_audio") }
        for file in media.reversed() {
            guard let audio = file.tracks.first(where: { $0.kind == .audio }),
                  let video = file.tracks.first(where: { $0.kind == .video }) else { continue }
            if let shift = video.avShiftMs { return (shift == .min ? .max : -shift, "sender_reports") }
            if audio.rtpNtpMapping?.source == .senderReport, video.rtpNtpMapping?.source == .senderReport {
                return (0, "sender_reports")
            }
        }
        return (nil, "arrival_only")
    }
}
