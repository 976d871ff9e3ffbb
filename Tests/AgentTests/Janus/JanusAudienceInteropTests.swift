import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentJanus
@testable import AgentMedia
@testable import AgentTransport

/// The audience member against the real Janus: two aiortc publishers (440 and 660 Hz), one of
/// them joining after we subscribed, so the multistream subscription has to renegotiate.
@Suite("JanusAudienceInterop", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct JanusAudienceInteropTests {
    final class Recorded: Sendable {
        let events = Mutex<[RoomEvent]>([])
        func append(_ event: RoomEvent) { events.withLock { $0.append(event) } }

        func frames(of participant: String, kind: MediaKind) -> [RemoteFrame] {
            events.withLock { events in
                events.compactMap { event in
                    if case .frame(let frame) = event, frame.participantID == participant, frame.kind == kind { return frame }
                    return nil
                }
            }
        }

        func index(where predicate: (RoomEvent) -> Bool) -> Int? { events.withLock { $0.firstIndex(where: predicate) } }

        var dataCount: Int {
            events.withLock { $0.filter { if case .data = $0 { true } else { false } }.count }
        }
    }

    func startPublisher(_ lab: LabEnvironment, room: String, display: String, tone: Int, create: Bool) async throws -> (ChildProcess, String) {
        var arguments = [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", display,
                         "--tone", String(tone), "--duration", "60", "--data-interval-ms", "200"]
        if create { arguments.append("--create") }
        let process = try ChildProcess(Repository.python, arguments, name: display)
        let ready = try await process.waitForLine(timeout: .seconds(30)) { $0.hasPrefix("READY") }
        let json = try JSONValue(parsing: String(ready.dropFirst("READY".count)))
        return (process, try #require(json["id"]?.idString))
    }

    @Test("subscribes to every publisher, including one who joins later, and announces users before tracks")
    func recordsTwoPublishers() async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared { try await twoPublishers() }
        }
    }

    private func twoPublishers() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("audience")
        let (alice, aliceID) = try await startPublisher(lab, room: room, display: "alice", tone: 440, create: true)
        defer { alice.terminate() }

        let loop = EventLoop(name: "test.audience")
        defer { loop.shutdown() }
        let recorded = Recorded()
        let audience = JanusAudience.forLab(lab, room: room, loop: loop, recorded: recorded)
        try await audience.start()
        do {
            try await pollUntil(timeout: .seconds(20), "alice's audio, a video keyframe and data") {
                recorded.frames(of: aliceID, kind: .audio).count >= 100
                    && recorded.frames(of: aliceID, kind: .video).contains(where: \.isKeyframe) && recorded.dataCount >= 3
            }
            let (bob, bobID) = try await startPublisher(lab, room: room, display: "bob", tone: 660, create: false)
            defer { bob.terminate() }
            try await pollUntil(timeout: .seconds(20), "bob's audio after renegotiation") {
                recorded.frames(of: bobID, kind: .audio).count >= 100
            }
            await bob.terminate()
            try await pollUntil(timeout: .seconds(20), "bob leaving") {
                recorded.index { if case .participantLeft(bobID, _) = $0 { true } else { false } } != nil
            }

            // Users come before their tracks, tracks before frames.
            for id in [aliceID, bobID] {
                let joined = try #require(recorded.index { if case .participantJoined(id, _, _) = $0 { true } else { false } })
                let track = try #require(recorded.index { if case .trackAdded(id, _, _) = $0 { true } else { false } })
                let frame = try #require(recorded.index { if case .frame(let f) = $0, f.participantID == id { true } else { false } })
                #expect(joined < track && track < frame)
            }
            // Each one's audio is their own tone.
            for (id, tone, other) in [(aliceID, 440.0, 660.0), (bobID, 660.0, 440.0)] {
                let decoder = try OpusDecoder(channels: 1)
                var pcm: [Int16] = []
                for frame in recorded.frames(of: id, kind: .audio).suffix(50) { pcm += try decoder.decode(frame.bytes) }
                let own = goertzelPower(pcm, frequency: tone)
                let foreign = goertzelPower(pcm, frequency: other)
                #expect(own > 100 * foreign, "\(id): \(tone) Hz \(own) vs \(other) Hz \(foreign)")
            }
            let video = recorded.frames(of: aliceID, kind: .video)
            #expect(video.first(where: \.isKeyframe).map { frame in
                frame.bytes.withUnsafeBytes { VP8Depacketizer.keyframeSize(of: $0).map { "\($0.width)x\($0.height)" } }
            } == "640x480")
            let counters = try await audience.transportCounters()
            #expect(counters?.srtpErrors == 0)
            let warnings = await audience.warnings
            #expect(warnings.isEmpty, "\(warnings)")
        } catch {
            await audience.stop()
            throw error
        }
        await audience.stop()
    }
}
