import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentJanus
@testable import AgentMedia
@testable import AgentSession
@testable import AgentTransport
@testable import AgentWire

/// Swift publishes into a Janus room (our offer, Janus's answer) and a Swift audience member in
/// the same room receives it through Janus: both ends of agentd's transport against the SFU.
@Suite("JanusPublishInterop", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct JanusPublishInteropTests {
    final class Events: Sendable {
        let list = Mutex<[RoomEvent]>([])
        func frames(_ kind: MediaKind) -> [RemoteFrame] {
            list.withLock { $0.compactMap { if case .frame(let f) = $0, f.kind == kind { f } else { nil } } }
        }
    }

    @Test("a Swift publisher's Opus tone and VP8 video reach a Swift audience member through Janus")
    func publishesThroughJanus() async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared { try await publishAndReceive() }
        }
    }

    private func publishAndReceive() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("publish")
        let hostIP = lab.hostIP ?? "10.77.0.1"
        let loop = EventLoop(name: "test.publish")
        defer { loop.shutdown() }

        // Publisher: join, offer, let Janus answer.
        let connection = JanusConnection(url: lab.janusWS, loop: loop)
        try await connection.connect()
        let session = try await JanusSession.create(on: connection)
        let videoRoom = try await VideoRoom.attach(to: session)
        try await videoRoom.create(room: room)
        _ = try await videoRoom.joinAsPublisher(room: room, display: "swift-bot")
        let peer = try PeerConnection(loop: loop, localAddresses: [hostIP])
        let tracks = [
            TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 0xA0D1),
            TrackOffer(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 0x51DE),
        ]
        let offer = try await peer.offer(tracks: tracks, dataChannelLabel: nil)
        let answer = try await videoRoom.publish(offer: offer.text)
        try await peer.acceptAnswer(try SessionDescription.parse(answer))
        try await pollUntil(timeout: .seconds(15), "the publisher's transport") { (try? await loop.submit { peer.state }) == .connected }
        let publishing = try PublishSession(peer: peer, tracks: tracks)
        let keyframeWanted = Mutex(false)
        try await loop.submit {
            publishing.onKeyframeRequest = { mid in if mid == "1" { keyframeWanted.withLock { $0 = true } } }
            publishing.start()
        }

        // Audience in the same room.
        let events = Events()
        let audienceLoop = EventLoop(name: "test.publish.audience")
        defer { audienceLoop.shutdown() }
        let audience = JanusAudience(
            configuration: .init(server: lab.janusWS, room: room, display: "swift-audience", iceAddresses: [hostIP]),
            loop: audienceLoop, sink: { event in events.list.withLock { $0.append(event) } })
        try await audience.start()

        // 6 s of a 440 Hz tone (20 ms Opus) and 320x240 VP8 at 25 fps, paced; keyframes only on
        // request (PLI/FIR from Janus) after the first, so the audience sees video only if that works.
        let opus = try OpusEncoder()
        let vp8 = try VPXEncoder(configuration: .init(bitrate: 300_000, framesPerSecond: 25, keyframeInterval: 100_000))
        let start = ContinuousClock.now
        var keyframesForced = 0
        for tick in 0..<300 {  // 20 ms ticks
            let pcm = (0..<960).map { index in Int16(8000 * sin(2 * Double.pi * 440 * Double(tick * 960 + index) / 48_000)) }
            let audioPayload = try opus.encode(pcm)
            var videoFrames: [VPXEncodedFrame] = []
            if tick % 2 == 0 {  // 25 fps
                if keyframeWanted.withLock({ wanted in defer { wanted = false }; return wanted }) {
                    vp8.forceKeyframe()
                    keyframesForced += 1
                }
                let frame = try I420Frame.testPattern(width: 320, height: 240, frameIndex: tick / 2)
                videoFrames = try vp8.encode(frame, pts: Int64(tick * 20 * 90))
            }
            let audioTimestamp = Int64(tick * 960)
            let videoTimestamp = Int64(tick * 20 * 90)
            let encodedVideo = videoFrames
            try await loop.submit {
                publishing.send(frame: audioPayload, mid: "0", rtpTimestamp: audioTimestamp, isKeyframe: true)
                for frame in encodedVideo {
                    publishing.send(frame: frame.data, mid: "1", rtpTimestamp: videoTimestamp, isKeyframe: frame.isKeyframe)
                }
            }
            try await Task.sleep(until: start + .milliseconds(20 * (tick + 1)), clock: .continuous)
        }

        try await pollUntil(timeout: .seconds(10), "frames at the audience") {
            events.frames(.audio).count >= 100 && events.frames(.video).contains(where: \.isKeyframe)
        }
        let decoder = try OpusDecoder(channels: 1)
        var decoded: [Int16] = []
        for frame in events.frames(.audio).suffix(50) { decoded += try decoder.decode(frame.bytes) }
        #expect(goertzelPower(decoded, frequency: 440) > 100 * goertzelPower(decoded, frequency: 660))
        let firstKeyframe = events.frames(.video).first { $0.isKeyframe }
        let keyframe = try #require(firstKeyframe)
        let size = keyframe.bytes.withUnsafeBytes { VP8Depacketizer.keyframeSize(of: $0) }
        #expect(size?.width == 320 && size?.height == 240)

        let (audioStats, videoStats, errors) = try await loop.submit {
            (publishing.statistics(mid: "0"), publishing.statistics(mid: "1"), publishing.sendErrors)
        }
        print("publish: audio \(String(describing: audioStats)), video \(String(describing: videoStats)), keyframes forced \(keyframesForced)")
        #expect(errors == 0)
        #expect((audioStats?.senderReports ?? 0) >= 4, "sender reports every second")
        #expect((videoStats?.plisReceived ?? 0) + (videoStats?.firsReceived ?? 0) > 0, "Janus asked for a keyframe")
        #expect(keyframesForced > 0)
        try await loop.submit { publishing.stop() }
        await audience.stop()
        peer.close()
        try? await videoRoom.unpublish()
        await videoRoom.close()
    }
}
