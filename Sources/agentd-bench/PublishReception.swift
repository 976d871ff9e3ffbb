/// Proof that a subscriber received each publisher: Janus listed it as publishing, and the
/// run's `agentd record` wrote a WebM for it with frames of each kind it sends.
struct PublishReception: Sendable {
    struct Side: Sendable {
        var publishers = 0
        /// Listed by Janus as publishing (listparticipants).
        var listed = 0
        /// With a recorded WebM holding packets of every expected kind.
        var received = 0
        /// The lowest rates over this side's publishers, as recorded (nil: kind not sent).
        var minVideoFPS: Double?
        var minAudioPacketsPerSecond: Double?
        /// The mean bitrate of this side's recordings (what the publishers sent, as received).
        var meanKbps: Double?

        var isComplete: Bool { publishers > 0 && listed == publishers && received == publishers }
    }

    var sides: [String: Side] = [:]
    var recorderExit: Int32?
    var recordedSeconds = 0.0

    func side(_ label: String) -> Side { sides[label] ?? Side() }

    /// Counts one side from the roster, the recorder's summary and ffprobe of each WebM.
    mutating func add(
        _ label: String, displays: [String], roster: RoomRoster, summary: AgentdSummary?, audio: Bool, video: Bool
    ) {
        var side = Side(publishers: displays.count)
        var kbps: [Double] = []
        for display in displays {
            if roster.publishing.contains(display) { side.listed += 1 }
            guard let webm = summary?.filesByDisplay[display]?.first(where: { $0.hasSuffix(".webm") }),
                let probe = RecordingProbe.read(webm)
            else { continue }
            recordedSeconds = max(recordedSeconds, probe.seconds)
            kbps.append(probe.bitsPerSecond / 1000)
            if video { side.minVideoFPS = min(side.minVideoFPS ?? .infinity, probe.videoFPS) }
            if audio { side.minAudioPacketsPerSecond = min(side.minAudioPacketsPerSecond ?? .infinity, probe.audioPacketsPerSecond) }
            if (!video || probe.videoFrames > 0) && (!audio || probe.audioPackets > 0) { side.received += 1 }
        }
        if !kbps.isEmpty { side.meanKbps = kbps.reduce(0, +) / Double(kbps.count) }
        sides[label] = side
    }
}
