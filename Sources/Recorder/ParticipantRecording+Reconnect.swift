import Agent

/// What a reconnect of the recorder changes for one participant (see ``ParticipantRecording``,
/// "Reconnects"), and receive statistics that span several receive streams.
extension ParticipantRecording {
    func update(_ statistics: ReceiveStreamStatistics, kind: MediaKind) {
        // Counters that went back belong to a new receive stream (after a reconnect): keep the
        // old stream's figures and add the new ones to them.
        if let previous = receiverStatistics[kind], statistics.packets < previous.packets {
            earlierStatistics[kind] = Self.sum(earlierStatistics[kind], previous)
        }
        receiverStatistics[kind] = statistics
    }

    static func sum(_ first: ReceiveStreamStatistics?, _ second: ReceiveStreamStatistics) -> ReceiveStreamStatistics {
        guard let first else { return second }
        var total = second
        total.packets += first.packets
        total.bytes += first.bytes
        total.lost += first.lost
        total.recovered += first.recovered
        total.nacks += first.nacks
        total.plis += first.plis
        total.keyframes += first.keyframes
        total.frames += first.frames
        return total
    }

    // MARK: Reconnects

    /// The connection dropped: later frames belong to new streams and are placed by wall time.
    func suspend() {
        audioAnchor = RTPTimelineAnchor(unitsPerSecond: 48_000)
        oggAnchor = RTPTimelineAnchor(unitsPerSecond: 48_000)
        mediaAnchors.removeAll()
        alignment.reset()
        decoder = nil
        webm?.resumeAfterGap()
    }

    /// The drop took them away (they were gone when we got back). Their files stay open until
    /// ``leave(atMs:)`` or ``finish(atSample:)``, in case they come back.
    func markLost(atMs ms: Int64) {
        guard isPresent else { return }
        leftMs = ms
        isPresent = false
        isLost = true
    }

    /// They came back after the drop under a new Janus `id`: their files go on.
    func resume(id newID: String) {
        guard isLost else { return }
        if !ids.contains(newID) { ids.append(newID) }
        leftMs = nil
        isPresent = true
        isLost = false
        suspend()
    }
}
