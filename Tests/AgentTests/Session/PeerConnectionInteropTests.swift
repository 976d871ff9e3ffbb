import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import AgentMedia
@testable import AgentSession
@testable import AgentTransport
@testable import AgentWire

/// Our PeerConnection answering a real WebRTC peer (aiortc) directly over loopback: ICE, DTLS,
/// SRTP and SCTP all have to work for any of these checks to pass. No Janus in between.
@Suite(.serialized) struct PeerConnectionInteropTests {
    struct Observed {
        var states: [PeerConnection.State] = []
        var rtpByPayloadType: [UInt8: Int] = [:]
        var payloadsByType: [UInt8: [[UInt8]]] = [:]
        var senderReports = 0
        var opened: [String] = []
        var messages: [String] = []
    }

    static var peersMissing: Bool { !Repository.hasPeers && ProcessInfo.processInfo.environment["AGENTD_REQUIRE_LAB"] == nil }

    @Test(.disabled(if: peersMissing, "no .venv with aiortc: run scripts/setup"))
    func answersAiortcAndReceivesMediaAndData() async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared { try await answerAiortc() }
        }
    }

    private func answerAiortc() async throws {
        let offerer = try ChildProcess(Repository.python, [Repository.peer("offerer.py"), "--duration", "30"])
        defer { offerer.terminate() }
        let offerLine = try await offerer.waitForLine(timeout: .seconds(20)) { $0.hasPrefix("{") }
        let offerJSON = try #require(try JSONSerialization.jsonObject(with: Data(offerLine.utf8)) as? [String: Any])
        let offer = try SessionDescription.parse(try #require(offerJSON["sdp"] as? String))

        let loop = EventLoop(name: "test.pc")
        defer { loop.shutdown() }
        let observed = Mutex(Observed())
        let handlers = PeerConnection.Handlers(
            onState: { state in observed.withLock { $0.states.append(state) } },
            onRTP: { header, packet in
                observed.withLock { seen in
                    seen.rtpByPayloadType[header.payloadType, default: 0] += 1
                    if seen.payloadsByType[header.payloadType, default: []].count < 300 {
                        seen.payloadsByType[header.payloadType, default: []].append(Array(packet[header.payloadRange]))
                    }
                }
            },
            onRTCP: { packets in
                let reports = packets.filter { if case .senderReport = $0 { true } else { false } }.count
                observed.withLock { $0.senderReports += reports }
            },
            onDataChannel: { event in
                observed.withLock { seen in
                    switch event {
                    case .opened(_, let label, _): seen.opened.append(label)
                    case .message(let message): if case .text(let text) = message.payload { seen.messages.append(text) }
                    case .malformed: break
                    }
                }
            })
        let connection = try PeerConnection(loop: loop, localAddresses: ["127.0.0.1"], handlers: handlers)
        defer { connection.close() }
        let (answer, streams) = try await connection.answer(offer: offer, dataChannelLabel: "agentd")
        #expect(streams.filter(\.isAccepted).map(\.kind) == [.audio, .video, .data])
        let answerJSON = try JSONSerialization.data(withJSONObject: ["type": "answer", "sdp": answer.text])
        offerer.send(line: String(decoding: answerJSON, as: UTF8.self))

        try await pollUntil(timeout: .seconds(15), "connected") { observed.withLock { $0.states.contains(.connected) } }
        do {
            _ = try await offerer.waitForLine(timeout: .seconds(10)) { $0 == "CONNECTED" }
        } catch {
            let seen = observed.withLock { "\($0.states) rtp \($0.rtpByPayloadType) srs \($0.senderReports)" }
            Issue.record("aiortc never connected; we saw \(seen); answer:\n\(answer.text)\noffer:\n\(offer.text)")
            throw error
        }
        let audioPT = try #require(streams[0].payloadType)
        let videoPT = try #require(streams[1].payloadType)
        try await pollUntil(timeout: .seconds(15), "audio, video, an SR and data") {
            observed.withLock { seen in
                seen.rtpByPayloadType[audioPT, default: 0] >= 100 && seen.rtpByPayloadType[videoPT, default: 0] >= 30
                    && seen.senderReports >= 1 && seen.messages.contains { $0.hasPrefix("ping") }
            }
        }
        // Our own channel opens (aiortc ACKs it) and carries a message to the peer.
        try await pollUntil(timeout: .seconds(10), "our data channel to open") { observed.withLock { $0.opened.contains("agentd") } }
        try await loop.submit { try connection.sendData(.text("hello from swift")) }
        _ = try await offerer.waitForLine(timeout: .seconds(10)) { $0 == "DATA hello from swift" }

        // The audio really is the tone: decode the Opus we received.
        let payloads = observed.withLock { $0.payloadsByType[audioPT] ?? [] }
        let decoder = try OpusDecoder(channels: 1)
        var pcm: [Int16] = []
        for payload in payloads.prefix(100) {
            pcm += try decoder.decode(payload)
        }
        let energy440 = goertzelPower(pcm.suffix(24_000), frequency: 440)
        let energy660 = goertzelPower(pcm.suffix(24_000), frequency: 660)
        #expect(energy440 > 100 * energy660, "440 Hz \(energy440) vs 660 Hz \(energy660)")
        let counters = try await loop.submit { connection.counters }
        #expect(counters.srtpErrors == 0)
        #expect(counters.rtpParseErrors == 0)
    }
}

