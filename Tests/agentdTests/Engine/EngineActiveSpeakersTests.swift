import Agent
import Foundation
import Synchronization
import TestSupport
import Testing

/// ``ChannelOptions/detectsActiveSpeakers`` against real senders: two aiortc publishers take turns
/// on one wall-clock schedule (publisher.py --tone-schedule), and the channel's
/// `activeSpeakersChanged` follows them.
@Suite("EngineActiveSpeakers", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct EngineActiveSpeakersTests {
    /// Each 4.4 s period: ann talks 0–1 s, pauses 200 ms, talks 1.2–2.2 s; silence; bob talks
    /// 2.4–4.2 s; silence.
    static let periodMs = 4400
    static let annSchedule = "0-1000,1200-2200"
    static let bobSchedule = "2400-4200"

    final class Log: Sendable {
        let changes = Mutex<[(at: Date, displays: [String])]>([])
        var all: [(at: Date, displays: [String])] { changes.withLock { $0 } }

        /// Who led at `date` (nil before the first change).
        func leader(at date: Date) -> String?? {
            guard let last = all.last(where: { $0.at <= date }) else { return nil }
            return .some(last.displays.first)
        }
    }

    @Test("two publishers taking turns: the leader follows each within 300 ms, and a 200 ms pause does not flip it")
    func followsTheTalker() async throws {
        try await SharedResourceLock.lab.withExclusive { try await takeTurns() }
    }

    private func takeTurns() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("speakers")
        let epoch = Date().addingTimeInterval(2)
        let stamp = String(format: "%.3f", epoch.timeIntervalSince1970)
        let (ann, _) = try await LabPublisher.start(lab, room: room, display: "ann", tone: 440,
                                                    extra: ["--no-video", "--tone-schedule", "\(Self.annSchedule)/\(Self.periodMs)@\(stamp)"])
        defer { ann.terminate() }
        let (bob, _) = try await LabPublisher.start(lab, room: room, display: "bob", tone: 660,
                                                    extra: ["--no-video", "--tone-schedule", "\(Self.bobSchedule)/\(Self.periodMs)@\(stamp)"])
        defer { bob.terminate() }

        let engine = AgentEngine(loopCount: 1, loopName: "test.speakers")
        let log = Log()
        do {
            let channel = try await engine.join(
                RoomJoin(endpoint: .janus(server: lab.janusWS, room: room), display: "listener", iceAddresses: [lab.hostIP ?? "10.77.0.1"]),
                options: ChannelOptions(statsInterval: .milliseconds(500), detectsActiveSpeakers: true))
            let reports = Mutex<[ChannelStatistics]>([])
            let drain = Task {
                for await event in channel.events {
                    switch event {
                    case .activeSpeakersChanged(let users):
                        let now = Date()
                        log.changes.withLock { $0.append((now, users.map(\.display))) }
                    case .statsReport(let report): reports.withLock { $0.append(report) }
                    default: break
                    }
                }
            }
            defer { drain.cancel() }
            // Three whole periods, from the first one that starts a second after we joined.
            let joined = Date()
            let sinceEpoch = joined.timeIntervalSince(epoch) * 1000 + 1000
            let firstPeriod = max(0, Int((sinceEpoch / Double(Self.periodMs)).rounded(.up)))
            let start = epoch.addingTimeInterval(Double(firstPeriod * Self.periodMs) / 1000)
            let end = start.addingTimeInterval(Double(3 * Self.periodMs) / 1000)
            try await pollUntil(timeout: .seconds(60), "three periods of turns") { Date() > end.addingTimeInterval(0.5) }
            await engine.leave(channel)

            let changes = log.all
            for change in changes where change.at >= start && change.at <= end {
                print(String(format: "EngineActiveSpeakers: %+.3f s in its period: %@", change.at.timeIntervalSince(epoch)
                    .truncatingRemainder(dividingBy: Double(Self.periodMs) / 1000), change.displays.joined(separator: ",")))
            }
            var lags: [String] = []
            for period in 0..<3 {
                let origin = start.addingTimeInterval(Double(period * Self.periodMs) / 1000)
                func at(_ ms: Int) -> Date { origin.addingTimeInterval(Double(ms) / 1000) }
                for (talker, onsetMs, untilMs) in [("ann", 0, 2200), ("bob", 2400, 4200)] {
                    // The talker leads within 300 ms of their onset and holds the lead to the end of
                    // their turn (through ann's 200 ms pause at 1.0–1.2 s).
                    let lead = changes.first { $0.at >= at(onsetMs) && $0.at <= at(untilMs) && $0.displays.first == talker }
                    let lag = lead.map { Int(($0.at.timeIntervalSince(at(onsetMs)) * 1000).rounded()) }
                    lags.append("\(talker)@\(period): \(lag.map(String.init) ?? "never") ms")
                    #expect(lag.map { $0 <= 300 } == true, "period \(period): \(talker) led after \(String(describing: lag)) ms")
                    let steady = stride(from: onsetMs + 300, through: untilMs, by: 20).allSatisfy { log.leader(at: at($0)) == .some(talker) }
                    #expect(steady, "period \(period): \(talker) lost the lead during their turn: \(changes.filter { $0.at >= at(onsetMs) && $0.at <= at(untilMs) })")
                }
            }
            print("EngineActiveSpeakers: leads after onset: \(lags.joined(separator: ", "))")
            // Speaking time: ann talks 2000 ms and bob 1800 ms of every 4400.
            let last = try #require(reports.withLock { $0.last })
            let spoke = Dictionary(uniqueKeysWithValues: last.participants.map { participant in
                (participant.user.display, participant.tracks.first { $0.kind == .audio }?.speakingTime?.totalMilliseconds ?? -1)
            })
            print("EngineActiveSpeakers: speaking time \(spoke)")
            // aiortc sends RFC 6464 levels and Janus passes them on: nothing needed decoding.
            let sources = last.participants.compactMap { $0.tracks.first { $0.kind == .audio }?.speakingSource }
            #expect(sources == [.headerExtension, .headerExtension], "\(sources)")
            let ratio = Double(spoke["ann"] ?? 0) / Double(max(1, spoke["bob"] ?? 0))
            #expect(ratio > 0.9 && ratio < 1.5, "ann \(spoke["ann"] ?? -1) ms, bob \(spoke["bob"] ?? -1) ms (expected about 2000:1800)")
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }
}
