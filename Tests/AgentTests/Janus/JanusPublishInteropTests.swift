import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent

/// Swift publishes into a Janus room (our offer, Janus's answer) and a Swift audience member in
/// the same room receives it through Janus: both ends of agentd's transport against the SFU.
@Suite("JanusPublishInterop", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct JanusPublishInteropTests {
    final class Events: Sendable {
        let list = Mutex<[RoomEvent]>([])
        func frames(_ kind: TrackKind) -> [RemoteFrame] {
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
            OfferBuilder.Track(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 0xA0D1),
            OfferBuilder.Track(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 0x51DE),
        ]
        let offer = try await peer.offer(tracks: tracks, dataChannelLabel: nil)
        let answer = try await videoRoom.publish(offer: offer.text)
        try await peer.acceptAnswer(try SessionDescription.parse(answer))
        try await pollUntil(timeout: .seconds(15), "the publisher's transport") { (try? loop.sync { peer.state }) == .connected }

        // Audience in the same room.
        let events = Events()
        let audienceLoop = EventLoop(name: "test.publish.audience")
        defer { audienceLoop.shutdown() }
        let audience = JanusAudience(
            configuration: .init(server: lab.janusWS, room: room, display: "swift-audience", iceAddresses: [hostIP]),
            loop: audienceLoop, sink: { event in events.list.withLock { $0.append(event) } })
        try await audience.start()

        // Send 6 s of a 440 Hz tone (20 ms Opus) and 320x240 VP8 (keyframe every second), paced.
        let opus = try OpusEncoder()
        let vp8 = try VPXEncoder(configuration: .init(bitrate: 300_000, framesPerSecond: 30, keyframeInterval: 30))
        var packetizer = VP8Packetizer(maxPayloadSize: 1100)
        let midExtension = OfferBuilder.midExtensionID
        var audioSequence: UInt16 = 100
        var videoSequence: UInt16 = 5000
        let start = ContinuousClock.now
        for tick in 0..<300 {  // 20 ms ticks
            let pcm = (0..<960).map { index in Int16(8000 * sin(2 * Double.pi * 440 * Double(tick * 960 + index) / 48_000)) }
            let payload = try opus.encode(pcm)
            let audioPacket = try Self.rtp(payloadType: 111, sequence: audioSequence, timestamp: UInt32(tick * 960), ssrc: 0xA0D1,
                                           marker: false, mid: "0", extensionID: midExtension, payload: payload)
            audioSequence &+= 1
            var outgoing = [audioPacket]
            if tick % 3 == 0 || tick % 3 == 2, tick % 5 != 4 {  // ~30 fps on a 20 ms grid: frames at 0, 33, 67 ms …
                let frameIndex = tick * 20 / 33
                let frame = try I420Frame.testPattern(width: 320, height: 240, frameIndex: frameIndex)
                let timestamp = UInt32(tick * 20 * 90)
                for encoded in try vp8.encode(frame, pts: Int64(timestamp)) {
                    let payloads = packetizer.packetize(encoded.data)
                    for (index, chunk) in payloads.enumerated() {
                        outgoing.append(try Self.rtp(payloadType: 96, sequence: videoSequence, timestamp: timestamp, ssrc: 0x51DE,
                                                     marker: index == payloads.count - 1, mid: "1", extensionID: midExtension, payload: chunk))
                        videoSequence &+= 1
                    }
                }
            }
            let batch = outgoing
            try await loop.submit { for packet in batch { try peer.sendRTP(packet) } }
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

        await audience.stop()
        peer.close()
        try? await videoRoom.unpublish()
        await videoRoom.close()
    }

    static func rtp(
        payloadType: UInt8, sequence: UInt16, timestamp: UInt32, ssrc: UInt32, marker: Bool, mid: String, extensionID: UInt8,
        payload: [UInt8]
    ) throws -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 32)
        let length = try header.withUnsafeMutableBytes { bytes in
            try RTPHeader.write(
                marker: marker, payloadType: payloadType, sequenceNumber: sequence, timestamp: timestamp, ssrc: ssrc,
                extensions: [.init(id: extensionID, data: Array(mid.utf8))], into: bytes)
        }
        return Array(header.prefix(length)) + payload
    }
}
