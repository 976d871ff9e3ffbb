/// A recording continued in its directory (``RecordingContinuation``): how far the earlier
/// manifest got, and the one manifest of both runs.
///
/// Every figure may come from a hostile file, so sums saturate and nothing here traps.
extension RecordingManifest {
    /// The latest time (ms from t=0) this manifest knows of: `written_ms`, the duration, the ends
    /// of its files and gaps, joins, leaves and first frames, whichever is latest. A recorder
    /// killed between refreshes got a little further (up to a refresh interval) than this.
    public var lastKnownMs: Int64 {
        var latest = max(0, writtenMs ?? 0, durationMs ?? 0)
        func note(_ value: Int64?) { if let value { latest = max(latest, value) } }
        for file in files { note(Self.end(of: file)) }
        for gap in gaps { note(gap.endMs ?? gap.startMs) }
        note(connection?.selectedPair?.atMs)
        for participant in participants {
            note(participant.joinedMs)
            note(participant.leftMs)
            for file in participant.files { note(Self.end(of: file)) }
            for gap in participant.gaps { note(gap.endMs) }
            note(participant.stats.audio.firstFrameMs)
            note(participant.stats.video.firstFrameMs)
            for change in participant.resolutionChanges { note(change.tMs) }
        }
        return latest
    }

    /// This run's manifest laid after the earlier run's: the earlier participants, files and gaps
    /// first, then a `continued` gap, then this run's. A participant of this run whose `name` is
    /// an earlier participant's, with an id in common, is the same person back (the recorder
    /// gives an earlier name only to the earlier participant of that id): one entry, the new
    /// files appended. An earlier participant who did not come back is taken as gone when the
    /// earlier manifest ends (`left_ms`, unless it says when).
    public func continued(after continuation: RecordingContinuation) -> RecordingManifest {
        let earlier = continuation.earlier
        let endMs = continuation.earlierEndMs
        var result = self
        result.startedAt = earlier.startedAt
        result.formats = earlier.formats + formats.filter { !earlier.formats.contains($0) }
        var merged = earlier.participants
        var mergedIndices: Set<Int> = []
        var newcomers: [Participant] = []
        for entry in participants {
            let ids = Set(entry.ids)
            if let index = merged.indices.first(where: { index in
                !mergedIndices.contains(index) && merged[index].name == entry.name
                    && !ids.isDisjoint(with: merged[index].ids + [merged[index].id])
            }) {
                merged[index] = Self.merge(merged[index], entry)
                mergedIndices.insert(index)
            } else {
                newcomers.append(entry)
            }
        }
        for index in merged.indices where !mergedIndices.contains(index) && merged[index].leftMs == nil {
            merged[index].leftMs = max(merged[index].joinedMs, endMs)
        }
        result.participants = merged + newcomers
        result.files = earlier.files + files
        // A reconnect the earlier recorder was still trying when it died ended with it.
        let earlierGaps = earlier.gaps.map { gap in
            var closed = gap
            if closed.endMs == nil { closed.endMs = max(closed.startMs, endMs) }
            return closed
        }
        result.gaps = earlierGaps
            + [ConnectionGap(startMs: endMs, endMs: continuation.originMs, reason: ConnectionGap.continuedReason)] + gaps
        if earlier.eventsDropped != nil || eventsDropped != nil {
            result.eventsDropped = Self.sum(earlier.eventsDropped ?? 0, eventsDropped ?? 0)
        }
        return result
    }

    /// One participant of both runs: the earlier entry (id, name, join) with this run's files,
    /// gaps and changes after its own, the ids of both, the latest leave and the sums of the stats.
    static func merge(_ earlier: Participant, _ current: Participant) -> Participant {
        var entry = earlier
        let known = Set(earlier.ids)
        entry.ids += current.ids.filter { !known.contains($0) }
        entry.leftMs = current.leftMs
        entry.files += current.files
        entry.gaps += current.gaps
        entry.resolutionChanges += current.resolutionChanges
        entry.stats = Stats(audio: merge(earlier.stats.audio, current.stats.audio), video: merge(earlier.stats.video, current.stats.video))
        return entry
    }

    private static func merge(_ earlier: KindStats, _ current: KindStats) -> KindStats {
        KindStats(
            packets: sum(earlier.packets, current.packets), lost: sum(earlier.lost, current.lost),
            recovered: sum(earlier.recovered, current.recovered), nacks: sum(earlier.nacks, current.nacks),
            plis: sum(earlier.plis, current.plis), keyframes: sum(earlier.keyframes, current.keyframes),
            firstFrameMs: earlier.firstFrameMs ?? current.firstFrameMs,
            bytes: earlier.bytes == nil && current.bytes == nil ? nil : sum(earlier.bytes ?? 0, current.bytes ?? 0))
    }

    /// Where a file ends on the timeline: `end_ms`, else `start_ms` + `duration_ms`.
    static func end(of file: File) -> Int64 {
        file.endMs ?? sum(file.startMs, file.durationMs ?? 0)
    }

    /// `a + b`, held at the Int64 limits instead of trapping.
    static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : total
    }
}
