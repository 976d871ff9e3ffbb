import Agent
import BotKit
import Foundation
import Recorder
import Synchronization
import TestSupport
import Testing

/// One engine, two rooms: an audience channel records room A while a BotKit bot publishes in
/// room B through a host channel of the same engine. Each sees only its own room.
@Suite("EngineTwoChannels", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct EngineTwoChannelsTests {
    final class BotLog: Sendable {
        let events = Mutex<[BotEvent]>([])
        var joinedDisplays: [String] {
            events.withLock { $0.compactMap { if case .participantJoined(_, let display) = $0 { display } else { nil } } }
        }
        var lastStatistics: ChannelStatistics? {
            events.withLock { $0.reversed().lazy.compactMap { if case .statistics(let report) = $0 { report } else { nil } }.first }
        }
    }

    @Test("the engine records room A while its bot publishes in room B; each room's channel and recording hold only its own")
    func recordOneRoomPublishInAnother() async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared { try await twoRooms() }
        }
    }

    private func twoRooms() async throws {
        let lab = try LabEnvironment.required()
        let roomA = LabEnvironment.freshRoom("engine-a")
        let roomB = LabEnvironment.freshRoom("engine-b")
        let addresses = [lab.hostIP ?? "10.77.0.1"]
        let scratch = try ScratchDirectory("engine-two")
        let (alice, aliceID) = try await LabPublisher.start(lab, room: roomA, display: "alice-a", tone: 440)
        defer { alice.terminate() }
        let (bob, bobID) = try await LabPublisher.start(lab, room: roomB, display: "bob-b", tone: 660, extra: ["--no-video"])
        defer { bob.terminate() }

        let engine = AgentEngine(loopCount: 2, loopName: "test.engine2")
        let recorder = try RoomRecorder(directory: RecordingDirectory(path: scratch.path("room-a")), room: roomA, server: lab.janusWS)
        let bot = Bot(
            configuration: BotConfiguration(
                server: lab.janusWS, room: roomB, display: "bot-b", iceAddresses: addresses, listens: true, statsInterval: .milliseconds(500)),
            engine: engine)
        let botLog = BotLog()
        let collector = Task { for await event in bot.events { botLog.events.withLock { $0.append(event) } } }
        defer { collector.cancel() }
        do {
            let channelA = try await engine.join(
                RoomJoin(endpoint: .janus(server: lab.janusWS, room: roomA), display: "engine-recorder", iceAddresses: addresses),
                options: ChannelOptions(roomEventSink: { recorder.submit($0) }))
            let logA = ChannelEventLog(channelA.events)
            let tone = try AudioTrack(configuration: .init())
            try await bot.start(BotMedia(audioTrack: tone))
            let pusher = Task {
                var phase = 0.0
                while !Task.isCancelled {
                    let block = (0..<4800).map { _ -> Int16 in
                        defer { phase += 2 * Double.pi * 880 / 48_000 }
                        return Int16(sin(phase) * 8_000)
                    }
                    try await tone.push(block, sampleRate: 48_000, channels: 1)
                }
            }
            defer { pusher.cancel() }
            #expect(await engine.channels.map(\.room).sorted() == [roomA, roomB].sorted())
            #expect(channelA.loop !== (await engine.channels.first { $0.room == roomB })?.loop, "the two channels run on the engine's two loops")

            try await pollUntil(timeout: .seconds(20), "both channels seeing their room, the bot's audio reported back") {
                logA.contains(where: logA.isSubscribed(aliceID, .audio)) && botLog.joinedDisplays.contains("bob-b")
                    && (botLog.lastStatistics?.published.first?.bitrate ?? 0) > 0
                    && (botLog.lastStatistics?.track(of: bobID, kind: .audio)?.bitrate ?? 0) > 0
            }
            // Three seconds of room A's media on disk (alice's audio at the least). Bytes alone are
            // no clock: the WebM and the WAV's lead-in silence pass 60 kB before much audio has come.
            try await pollUntil(timeout: .seconds(20), "room A's recording to grow") {
                recorder.progress.bytesWritten > 60_000 && recorder.progress.mediaMs > 3000
            }
            recorder.endIntake()
            await engine.leave(channelA)
            let manifest = await recorder.stop(endedAt: Date())
            let sent = try #require(botLog.lastStatistics?.published.first)
            print("EngineTwoChannels: bot \(botLog.lastStatistics?.statsString ?? "")")
            await bot.stop()

            #expect(manifest.participants.map(\.display) == ["alice-a"], "room A's recording: \(manifest.participants.map(\.display))")
            #expect(logA.joined.map(\.display) == ["alice-a"])
            #expect(botLog.joinedDisplays == ["bob-b"], "the bot's listener sees room B only, and not itself")
            #expect(sent.kind == .audio && sent.codec == .opus && sent.packets > 50)
            #expect(await engine.channels.isEmpty)
            let (samples, _) = try RecordingChecks.samples(scratch.path("room-a/alice-a.wav"))
            let tail = samples.suffix(48_000)
            #expect(goertzelPower(tail, frequency: 440) > 100 * goertzelPower(tail, frequency: 880), "room A holds alice's tone, not the bot's")
        } catch {
            _ = await recorder.stop(endedAt: Date())
            await bot.stop()
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }
}
