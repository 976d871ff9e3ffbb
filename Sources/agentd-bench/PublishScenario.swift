import Foundation

/// One measured publish run: a fresh room holding N of our publishers and N aiortc publishers
/// (the anchor) at the same time, plus one `agentd record` subscribed to all of them so every
/// publisher has a receiver and the recording proves it was received.
///
/// Order: the anchors (the first creates the room), ours, Janus's listparticipants showing
/// everyone publishing, the recorder, warm-up, the measured window, then the recorder stops
/// (finalizing its WebMs) and everything else is stopped.
struct PublishScenario {
    static let recorderGroup = "recorder"

    let lab: LabRunOptions
    let kind: String
    let streams: Int
    let sendsAudio: Bool
    let sendsVideo: Bool
    let ours: PublisherSide
    let anchor: PublisherSide
    let workDirectory: String

    private let readyTimeout: TimeInterval = 45

    func run() throws(BenchError) -> PublishResult {
        defer { ChildRegistry.shared.stopAll() }
        let room = "bench-\(getpid())-\(kind)-n\(streams)-\(Int(Date().timeIntervalSince1970))"
        let runDirectory = "\(workDirectory)/\(kind)-n\(streams)"
        let logs = "\(runDirectory)/logs"
        do {
            try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create \(runDirectory): \(error.localizedDescription)")
        }
        let token = try LabToken.current(agentd: lab.agentd)
        let tokenArguments = token.map { ["--token", $0] } ?? []

        let anchors = try anchor.start(room, logs, tokenArguments)
        let ourChildren = try ours.start(room, logs, tokenArguments)
        let publishers = ourChildren + anchors
        let roster = try RoomRoster.waitFor(
            ours.displays + anchor.displays, agentd: lab.agentd, server: lab.server, room: room, tokenArguments: tokenArguments,
            timeout: readyTimeout, watching: publishers)
        let recorder = try Child(
            name: "agentd record", executable: lab.agentd,
            arguments: [
                "record", "--server", lab.server, "--room", room, "--out", "\(runDirectory)/recording", "--formats", "webm",
                "--duration", String(Int(lab.warmup + lab.seconds + 60)), "--ice-allow", lab.iceAllow, "--json",
            ] + tokenArguments,
            logPath: "\(logs)/recorder.log")

        // Warm-up: joins, ICE, DTLS, the recorder's subscriptions and first keyframes.
        try (publishers + [recorder]).pause(lab.warmup)
        let measurement = try WindowMeter(seconds: lab.seconds).measure(
            [.init(name: ours.label, children: ourChildren), .init(name: anchor.label, children: anchors),
             .init(name: Self.recorderGroup, children: [recorder])],
            threadsOf: ourChildren)

        recorder.stop(grace: 15)
        DispatchQueue.concurrentPerform(iterations: ourChildren.count) { ourChildren[$0].stop(grace: 10) }
        let summary = AgentdSummary(stdoutLines: recorder.stdoutLines)
        var reception = PublishReception(recorderExit: recorder.exitStatus)
        for side in [ours, anchor] {
            reception.add(side.label, displays: side.displays, roster: roster, summary: summary, audio: sendsAudio, video: sendsVideo)
        }
        return PublishResult(
            kind: kind, streams: streams, ours: ours.label, anchor: anchor.label, measurement: measurement, reception: reception,
            oursNote: ours.note(ourChildren))
    }
}
