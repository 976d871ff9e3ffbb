import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentMedia
@testable import AgentSession

/// libopenh264's access units through our RTP path: SendStream (H264Packetizer) out, a
/// ReceiveStream (H264DepacketizerAdapter in the jitter buffer) in, and back into the decoder.
@Suite(.offThePool) struct H264RTPRoundTripTests {
    @Test(arguments: [1200, 300])
    func openH264AccessUnitsComeBackByteForByteAndDecode(maxPacketSize: Int) throws {
        let encoder = try OpenH264Encoder(configuration: .init(bitrate: 800_000))
        let decoder = try OpenH264Decoder()
        var sender = try SendStream(
            configuration: .init(codec: .h264, ssrc: 0x4826_4001, payloadType: 102, cname: "agentd-test", maxPacketSize: maxPacketSize))
        var receiver = ReceiveStream(
            configuration: .init(kind: .video, clockRate: 90_000, localSSRC: 1, remoteSSRC: 0x4826_4001),
            depacketizer: H264DepacketizerAdapter())
        var sent: [OpenH264Encoder.Frame] = []
        var received: [MediaFrame] = []
        var packets = 0
        for index in 0..<20 {
            if index == 12 { encoder.forceKeyframe() }
            let picture = try I420Frame.testPattern(width: 320, height: 240, frameIndex: index)
            guard let frame = try encoder.encode(picture, timestampMs: Int64(index) * 33) else { continue }
            sent.append(frame)
            let at = MediaInstant.ms(Int64(index) * 33)
            for packet in sender.packetize(frame.bytes, rtpTimestamp: Int64(index) * 3000, isKeyframe: frame.isKeyframe, capturedAt: at) {
                #expect(packet.count <= maxPacketSize)
                packets += 1
                received += try receiver.receive(packet, arrival: at)
            }
        }
        #expect(packets > sent.count, "the IDRs need more than one packet")
        #expect(received.map(\.bytes) == sent.map(\.bytes))
        #expect(received.map(\.isKeyframe) == sent.map(\.isKeyframe))
        #expect(sent.filter(\.isKeyframe).count == 2)
        var decoded = 0
        for frame in received { decoded += try decoder.decode(frame.bytes).count }
        #expect(decoded == sent.count)
    }
}
