import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentTransport
@testable import AgentWire

/// Our offering PeerConnection (the publishing side) against our answering one, over
/// loopback: ICE (controlling vs controlled), DTLS with the role the answer picks, SRTP and SCTP
/// data channels opened from both ends.
@Suite(.serialized) struct PeerConnectionLoopbackTests {
    final class Seen: Sendable {
        let states = Mutex<[PeerConnection.State]>([])
        let rtp = Mutex<[(ssrc: UInt32, mid: String?, payload: [UInt8])]>([])
        let messages = Mutex<[String]>([])
        let opened = Mutex<[String]>([])

        func handlers(midExtensionID: UInt8?) -> PeerConnection.Handlers {
            PeerConnection.Handlers(
                onState: { state in self.states.withLock { $0.append(state) } },
                onRTP: { header, packet in
                    let mid = midExtensionID.flatMap { try? header.mid(extensionID: $0, in: packet) }
                    self.rtp.withLock { $0.append((header.ssrc, mid, Array(packet[header.payloadRange]))) }
                },
                onDataChannel: { event in
                    switch event {
                    case .opened(_, let label, _): self.opened.withLock { $0.append(label) }
                    case .message(let message): if case .text(let text) = message.payload { self.messages.withLock { $0.append(text) } }
                    case .malformed: break
                    }
                })
        }

        var connected: Bool { states.withLock { $0.contains(.connected) } }
    }

    @Test func offerAnswerMediaAndDataBothWays() async throws {
        try await SharedResourceLock.usrsctp.withShared { try await exchange() }
    }

    private func exchange() async throws {
        let publisherLoop = EventLoop(name: "test.offerer")
        let receiverLoop = EventLoop(name: "test.answerer")
        defer {
            publisherLoop.shutdown()
            receiverLoop.shutdown()
        }
        let publisherSeen = Seen()
        let receiverSeen = Seen()
        let publisher = try PeerConnection(loop: publisherLoop, localAddresses: ["127.0.0.1"], handlers: publisherSeen.handlers(midExtensionID: nil))
        let receiver = try PeerConnection(
            loop: receiverLoop, localAddresses: ["127.0.0.1"], handlers: receiverSeen.handlers(midExtensionID: OfferBuilder.midExtensionID))
        defer {
            publisher.close()
            receiver.close()
        }

        let tracks = [
            TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 0x1111),
            TrackOffer(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 0x2222),
        ]
        let offer = try await publisher.offer(tracks: tracks, dataChannelLabel: "from-publisher")
        #expect(offer.media.map(\.direction) == ["sendonly", "sendonly", "sendrecv"])
        #expect(offer.media.allSatisfy { $0.attribute("setup") == "actpass" })
        let (answer, streams) = try await receiver.answer(offer: try SessionDescription.parse(offer.text), dataChannelLabel: "from-receiver")
        #expect(streams.map(\.isAccepted) == [true, true, true])
        #expect(streams.map(\.codec) == [.opus, .vp8, nil])
        try await publisher.acceptAnswer(try SessionDescription.parse(answer.text))

        try await pollUntil(timeout: .seconds(15), "both ends connected") { publisherSeen.connected && receiverSeen.connected }

        // Media: the publisher sends RTP with the MID extension; the receiver sees it decrypted.
        for sequence in 0..<20 {
            for track in tracks {
                var packet = [UInt8](repeating: 0, count: 64)
                let length = try packet.withUnsafeMutableBytes { bytes in
                    try RTPHeader.write(
                        marker: true, payloadType: track.payloadType, sequenceNumber: UInt16(sequence), timestamp: UInt32(sequence * 960),
                        ssrc: track.ssrc, extensions: [.init(id: OfferBuilder.midExtensionID, data: Array(track.mid.utf8))], into: bytes)
                }
                let payload: [UInt8] = [0xFC, UInt8(sequence), 0xAB]
                let rtp = Array(packet.prefix(length)) + payload
                try await publisherLoop.submit { try publisher.sendRTP(rtp) }
            }
        }
        try await pollUntil(timeout: .seconds(10), "40 RTP packets at the receiver") { receiverSeen.rtp.withLock { $0.count } >= 40 }
        let received = receiverSeen.rtp.withLock { $0 }
        #expect(received.filter { $0.ssrc == 0x1111 }.allSatisfy { $0.mid == "0" })
        #expect(received.filter { $0.ssrc == 0x2222 }.allSatisfy { $0.mid == "1" })
        #expect(received.first { $0.ssrc == 0x1111 }?.payload == [0xFC, 0, 0xAB])

        // Data: each end opens its own channel and the other acknowledges it.
        try await pollUntil(timeout: .seconds(10), "both data channels open") {
            publisherSeen.opened.withLock { $0.contains("from-publisher") } && receiverSeen.opened.withLock { $0.contains("from-receiver") }
        }
        try await publisherLoop.submit { try publisher.sendData(.text("hello receiver")) }
        try await receiverLoop.submit { try receiver.sendData(.text("hello publisher")) }
        try await pollUntil(timeout: .seconds(10), "messages both ways") {
            receiverSeen.messages.withLock { $0.contains("hello receiver") } && publisherSeen.messages.withLock { $0.contains("hello publisher") }
        }
        let counters = try await receiverLoop.submit { receiver.counters }
        #expect(counters.srtpErrors == 0 && counters.rtpIn >= 40)
    }

    @Test func anAnswerWithoutASetupRoleIsRefused() async throws {
        let loop = EventLoop(name: "test.offerer.bad")
        defer { loop.shutdown() }
        let publisher = try PeerConnection(loop: loop, localAddresses: ["127.0.0.1"])
        defer { publisher.close() }
        let offer = try await publisher.offer(
            tracks: [TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 1)], dataChannelLabel: "data")
        var answer = offer
        for index in answer.media.indices {
            answer.media[index].attributes = answer.media[index].attributes.map { $0.name == "setup" ? SDPAttribute("setup", "actpass") : $0 }
        }
        await #expect(throws: PeerConnectionError.self) { try await publisher.acceptAnswer(answer) }
    }
}
