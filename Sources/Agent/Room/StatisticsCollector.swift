import Foundation

/// Builds ``ChannelStatistics`` reports from the counters the streams keep: the latest
/// ``ReceiveStreamStatistics`` per remote track (from ``RoomEvent/statistics(participantID:kind:_:)``)
/// and the ``SendStreamStatistics`` of our published tracks. Bitrates and loss fractions are
/// differences between the counters of one report and the previous one, over the time between
/// the two snapshots (not the nominal interval), so a late timer does not inflate them.
///
/// A plain value with an injected clock reading: tested without streams.
struct StatisticsCollector {
    struct Key: Hashable {
        var participantID: String
        var kind: MediaKind
    }

    private struct Baseline {
        var bytes: Int
        var packets: Int
        var lost: Int
        var at: ContinuousClock.Instant
        var bitrate = 0
        var fractionLost = 0.0
    }

    private var latest: [Key: (statistics: ReceiveStreamStatistics, at: ContinuousClock.Instant)] = [:]
    private var inboundBaselines: [Key: Baseline] = [:]
    private var outboundBaselines: [String: Baseline] = [:]

    /// A track was subscribed at `now`: its counters start at zero there.
    mutating func trackStarted(_ key: Key, at now: ContinuousClock.Instant) {
        latest[key] = nil
        inboundBaselines[key] = Baseline(bytes: 0, packets: 0, lost: 0, at: now)
    }

    mutating func trackEnded(_ key: Key) {
        latest[key] = nil
        inboundBaselines[key] = nil
    }

    /// The streams' latest counters for a track, taken at `now`.
    mutating func record(_ key: Key, _ statistics: ReceiveStreamStatistics, at now: ContinuousClock.Instant) {
        latest[key] = (statistics, now)
    }

    /// A report of `users`' subscribed tracks and of `published` (our tracks with their send
    /// counters, taken at `now`).
    mutating func report(
        room: String, users: [User], tracks: (String, MediaKind) -> RemoteTrack?, published: [(TrackOffer, SendStreamStatistics)],
        now: ContinuousClock.Instant, date: Date, interval: Duration
    ) -> ChannelStatistics {
        var participants: [ChannelStatistics.Participant] = []
        for user in users {
            var list: [TrackStatistics] = []
            for kind in [MediaKind.audio, .video] {
                guard let track = tracks(user.id, kind) else { continue }
                var statistics = inbound(Key(participantID: user.id, kind: kind), codec: track.codec)
                (statistics.framesDecoded, statistics.audioLevel) = track.decodingFigures
                statistics.sinkFramesDropped = track.counters.framesDroppedLaneFull
                list.append(statistics)
            }
            if !list.isEmpty { participants.append(.init(user: user, tracks: list)) }
        }
        let outbound = published.map { track, statistics in self.outbound(track, statistics, now: now) }
        return ChannelStatistics(room: room, measuredAt: date, interval: interval, participants: participants, published: outbound)
    }

    private mutating func inbound(_ key: Key, codec: MediaCodec) -> TrackStatistics {
        var result = TrackStatistics(direction: .inbound, kind: key.kind, codec: codec)
        guard let (statistics, at) = latest[key] else { return result }
        var baseline = inboundBaselines[key] ?? Baseline(bytes: 0, packets: 0, lost: 0, at: at)
        let elapsed = at - baseline.at
        if elapsed > .zero {
            baseline.bitrate = Self.bitsPerSecond(bytes: statistics.bytes - baseline.bytes, over: elapsed)
            let packets = statistics.packets - baseline.packets
            let lost = max(0, statistics.cumulativeLost - baseline.lost)
            baseline.fractionLost = packets + lost > 0 ? Double(lost) / Double(packets + lost) : 0
            (baseline.bytes, baseline.packets, baseline.lost, baseline.at) = (statistics.bytes, statistics.packets, statistics.cumulativeLost, at)
            inboundBaselines[key] = baseline
        }
        result.bitrate = baseline.bitrate
        result.fractionLost = baseline.fractionLost
        result.packets = statistics.packets
        result.lost = statistics.cumulativeLost
        result.jitter = .seconds(saturating: statistics.jitterSeconds)  // from the peer's RTP timestamps
        result.nacks = statistics.nacks
        result.plis = statistics.plis
        result.firs = statistics.firs
        result.frames = statistics.frames
        result.keyframes = statistics.keyframes
        return result
    }

    private mutating func outbound(_ track: TrackOffer, _ statistics: SendStreamStatistics, now: ContinuousClock.Instant) -> TrackStatistics {
        var baseline = outboundBaselines[track.mid] ?? Baseline(bytes: 0, packets: 0, lost: 0, at: now)
        let elapsed = now - baseline.at
        if elapsed > .zero {
            baseline.bitrate = Self.bitsPerSecond(bytes: statistics.payloadBytes - baseline.bytes, over: elapsed)
            (baseline.bytes, baseline.at) = (statistics.payloadBytes, now)
        }
        outboundBaselines[track.mid] = baseline
        return TrackStatistics(
            direction: .outbound, kind: track.kind, codec: track.codec, bitrate: baseline.bitrate, packets: statistics.packets,
            lost: statistics.reportedCumulativeLost, fractionLost: statistics.reportedFractionLost,
            jitter: statistics.receptionReports > 0
                ? .nanoseconds(Int64(statistics.reportedJitter) * 1_000_000_000 / Int64(track.clockRate)) : nil,
            nacks: statistics.nacksReceived, plis: statistics.plisReceived, firs: statistics.firsReceived, frames: statistics.frames,
            keyframes: statistics.keyframes, roundTripTime: statistics.roundTripTime)
    }

    static func bitsPerSecond(bytes: Int, over elapsed: Duration) -> Int {
        let nanoseconds = elapsed.totalNanoseconds
        guard nanoseconds > 0, bytes > 0 else { return 0 }
        return Int(Double(bytes) * 8 * 1_000_000_000 / Double(nanoseconds))
    }
}
