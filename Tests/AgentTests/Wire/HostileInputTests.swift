import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentMedia
@testable import AgentTransport
@testable import AgentWire

/// Network input never crashes us: every parser gets thousands of random and mutated inputs
/// from a seeded generator (reproducible), and must answer with a value or a typed error.
@Suite(.offThePool) struct HostileInputTests {
    typealias SeededGenerator = SeededRandom

    static let seeds: [[UInt8]] = [
        RTPHeaderTests.opusWithMID,
        RTCPPacketTests.senderReportAndPLI,
        [0x90, 0xF0, 0x81, 0x23, 0x05, 0x65, 0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A],
        [0xAA, 0x80, 0x2A, 0x00, 0x07, 0x18, 0x02, 0x80, 0x01, 0xE0, 0x01, 0x04, 0x01, 0x82],
        [0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x74, 0x65, 0x73, 0x74],
    ]

    /// Random bytes, or a seed with a few bytes flipped, truncated or extended.
    static func inputs(count: Int, seed: UInt64) -> [[UInt8]] {
        var generator = SeededGenerator(state: seed)
        return (0..<count).map { index in
            if index % 2 == 0 {
                return (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
            var bytes = seeds[index / 2 % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            switch Int.random(in: 0...2, using: &generator) {
            case 0: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            case 1: bytes += (0..<Int.random(in: 0...8, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            default: break
            }
            return bytes
        }
    }

    @Test func binaryParsersNeverTrap() {
        var outcomes = (values: 0, errors: 0)
        for bytes in Self.inputs(count: 20_000, seed: 0xA6E7D) {
            bytes.withUnsafeBytes { buffer in
                func note<T>(_ body: () throws -> T) {
                    if (try? body()) != nil { outcomes.values += 1 } else { outcomes.errors += 1 }
                }
                note { try RTPHeader.parse(buffer) }
                if let header = try? RTPHeader.parse(buffer) {
                    note { try header.mid(extensionID: 1, in: buffer) }
                }
                note { try RTCPPacket.parseCompound(buffer) }
                note { try VP8Depacketizer.fragment(of: buffer) }
                note { try VP9Depacketizer.fragment(of: buffer) }
                note { try OpusPacket.sampleCount(buffer) }
                _ = VP8Depacketizer.keyframeSize(of: buffer)
                _ = PacketDemuxer.classify(buffer)
            }
            if (try? DCEPMessage(parsing: bytes)) != nil { outcomes.values += 1 } else { outcomes.errors += 1 }
        }
        // Both kinds of answer happened: the mutations reach past the first checks.
        #expect(outcomes.values > 1000 && outcomes.errors > 1000, "\(outcomes)")
    }

    @Test func textParsersNeverTrap() {
        var generator = SeededGenerator(state: 0x5D9)
        let offer = Array(SessionDescriptionTests.janusOffer)
        let noise = Array("=: \r\n/-0123456789avmoc{}[]\"\\")
        var outcomes = (values: 0, errors: 0)
        for _ in 0..<3_000 {
            var text = offer
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                text[Int.random(in: 0..<text.count, using: &generator)] = noise.randomElement(using: &generator)!
            }
            text = Array(text.prefix(Int.random(in: 0...text.count, using: &generator)))
            let string = String(text)
            if (try? SessionDescription.parse(string)) != nil { outcomes.values += 1 } else { outcomes.errors += 1 }
            _ = try? JSONValue(parsing: string)
            _ = try? JSONValue(parsing: "{\"janus\":\"event\",\"plugindata\":" + string.prefix(40) + "}")
            _ = try? DTLSFingerprint(sdpValue: String(string.suffix(120)))
            _ = try? ICECandidate(sdpAttribute: String(string.prefix(80)))
        }
        #expect(outcomes.values > 100 && outcomes.errors > 100, "\(outcomes)")
    }
}
