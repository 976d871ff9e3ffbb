import Foundation

/// The one-glance text form, in the spirit of QuickBlox's `statsString`: a headline with the
/// totals, then one line per participant and one for what we publish.
///
///     room demo: 1 user, in 1264 kbps, out 0 kbps
///       alice(pub-1) audio opus 32 kbps 250 pkts lost 0 (0.0%) jitter 2 ms nack 0 pli 0 | video VP8 1232 kbps …
///       (a track adds "sink drops N" once its sinks fell behind and frames were dropped before them)
///       published audio opus 32 kbps 250 pkts lost 0 (0.0%) jitter 1 ms nack 0 pli 0 rtt 12 ms
///       events behind: 12 coalesced, 0 dropped      (only when the event consumer fell behind)
extension ChannelStatistics {
    public var statsString: String {
        let users = participants.count == 1 ? "1 user" : "\(participants.count) users"
        var lines = ["room \(room): \(users), in \(Self.kbps(inboundBitrate)), out \(Self.kbps(outboundBitrate))"]
        for participant in participants {
            lines.append("  \(participant.user) " + participant.tracks.map(Self.line).joined(separator: " | "))
        }
        if !published.isEmpty {
            lines.append("  published " + published.map(Self.line).joined(separator: " | "))
        }
        if !events.isZero {
            lines.append("  events behind: \(events.coalesced) coalesced, \(events.dropped) dropped")
        }
        return lines.joined(separator: "\n")
    }

    static func line(_ track: TrackStatistics) -> String {
        var parts = [track.kind.rawValue]
        if let codec = track.codec { parts.append(codec.encodingName) }
        parts.append(kbps(track.bitrate))
        parts.append("\(track.packets) pkts")
        parts.append("lost \(track.lost) (\(String(format: "%.1f", track.fractionLost * 100))%)")
        if let jitter = track.jitter { parts.append("jitter \(milliseconds(jitter)) ms") }
        parts.append("nack \(track.nacks) pli \(track.plis)")
        if let rtt = track.roundTripTime { parts.append("rtt \(milliseconds(rtt)) ms") }
        if let decoded = track.framesDecoded { parts.append("decoded \(decoded)") }
        if let level = track.audioLevel { parts.append("level \(String(format: "%.2f", level))") }
        if let speaking = track.speakingTime { parts.append("spoke \(String(format: "%.1f", Double(speaking.totalMilliseconds) / 1000)) s") }
        if track.sinkFramesDropped > 0 { parts.append("sink drops \(track.sinkFramesDropped)") }
        return parts.joined(separator: " ")
    }

    static func kbps(_ bitsPerSecond: Int) -> String { "\((bitsPerSecond + 500) / 1000) kbps" }

    static func milliseconds(_ duration: Duration) -> Int {
        Int((Double(duration.totalNanoseconds) / 1_000_000).rounded())
    }
}
