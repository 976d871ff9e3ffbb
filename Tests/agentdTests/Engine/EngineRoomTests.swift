import Agent
import Foundation
import TestSupport
import Testing

/// An audience channel against the lab: roster events in SDK order as aiortc publishers come and
/// go, two publishers sharing a display name, and statistics at the set interval.
@Suite("EngineRoom", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct EngineRoomTests {
    @Test("userJoined before trackSubscribed, trackUnsubscribed before userLeft; a shared display is two users; stats every 500 ms")
    func eventOrderAndStatistics() async throws {
        try await SharedResourceLock.lab.withExclusive { try await watchPublishers() }
    }

    private func watchPublishers() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("engine")
        let engine = AgentEngine(loopCount: 1, loopName: "test.engine")
        do {
            let join = RoomJoin(
                endpoint: .janus(server: lab.janusWS, room: room), display: "engine-audience", create: true,
                iceAddresses: [lab.hostIP ?? "10.77.0.1"])
            let channel = try await engine.join(join, options: ChannelOptions(statsInterval: .milliseconds(500)))
            let log = ChannelEventLog(channel.events)

            // Two publishers with one display name, joining after us.
            let (first, firstID) = try await LabPublisher.start(lab, room: room, display: "alice", tone: 440)
            defer { first.terminate() }
            let (second, secondID) = try await LabPublisher.start(lab, room: room, display: "alice", tone: 660, extra: ["--no-video"])
            defer { second.terminate() }
            try await pollUntil(timeout: .seconds(20), "both publishers' tracks") {
                log.contains(where: log.isSubscribed(firstID, .audio)) && log.contains(where: log.isSubscribed(firstID, .video))
                    && log.contains(where: log.isSubscribed(secondID, .audio))
            }
            #expect(firstID != secondID)
            #expect(log.joined.filter { $0.display == "alice" }.map(\.id).sorted() == [firstID, secondID].sorted())

            // Statistics: bitrates from the byte counters, at the set interval. Six reports after
            // the tracks came, so the video has ramped up.
            let before = log.reports.count
            try await pollUntil(timeout: .seconds(15), "six more reports") { log.reports.count >= before + 6 }
            let report = try #require(log.reports.last?.report)
            let audio = try #require(report.track(of: firstID, kind: .audio))
            let video = try #require(report.track(of: firstID, kind: .video))
            print("EngineRoom: \(report.statsString)")
            #expect((8_000...200_000).contains(audio.bitrate), "audio \(audio.bitrate) bit/s")
            #expect(video.bitrate > 50_000, "video \(video.bitrate) bit/s")
            #expect(audio.packets > 0 && video.frames > 0 && audio.codec == .opus && video.codec == .vp8)
            #expect(report.statsString.contains("alice(\(firstID))"))
            let times = log.reports.map(\.at)
            try #require(times.count >= 5)
            let spacing = (times[times.count - 1] - times[1]) / (times.count - 2)
            #expect(spacing > .milliseconds(400) && spacing < .milliseconds(650), "reports every \(spacing)")

            await first.terminate()
            try await pollUntil(timeout: .seconds(20), "the first alice leaving") { log.contains(where: log.isLeft(firstID)) }
            for id in [firstID, secondID] {
                let joined = try #require(log.index(where: log.isJoined(id)))
                let audioAt = try #require(log.index(where: log.isSubscribed(id, .audio)))
                #expect(joined < audioAt)
            }
            let joined = try #require(log.index(where: log.isJoined(firstID)))
            let videoAt = try #require(log.index(where: log.isSubscribed(firstID, .video)))
            let left = try #require(log.index(where: log.isLeft(firstID)))
            let audioGone = try #require(log.index(where: log.isUnsubscribed(firstID, .audio)))
            let videoGone = try #require(log.index(where: log.isUnsubscribed(firstID, .video)))
            #expect(joined < videoAt && videoAt < videoGone)
            #expect(audioGone < left && videoGone < left)
            #expect(channel.users.map(\.id) == [secondID])
            #expect(channel.connectionState == .connected)
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }
}
