import Testing

@testable import Agent
@testable import AgentTransport

@Suite struct ICECandidateTests {
    @Test func parsesHostCandidateWithExtensions() throws {
        let candidate = try ICECandidate(
            sdpAttribute: "a=candidate:1 1 UDP 2013266431 10.77.0.1 40021 typ host generation 0\r\n")
        #expect(candidate.foundation == "1")
        #expect(candidate.component == 1)
        #expect(candidate.isUDP)
        #expect(candidate.priority == 2_013_266_431)
        #expect(candidate.address == "10.77.0.1")
        #expect(candidate.port == 40021)
        #expect(candidate.kind == .host)
        #expect(candidate.relatedAddress == nil)
        #expect(candidate.extensions.map(\.name) == ["generation"])
        #expect(candidate.extensions.map(\.value) == ["0"])
        #expect(candidate.sdpAttribute == "candidate:1 1 UDP 2013266431 10.77.0.1 40021 typ host generation 0")
    }

    @Test func roundTripsServerReflexiveWithRelatedAddress() throws {
        let text = "candidate:842163049 1 udp 1677729535 203.0.113.7 61665 typ srflx raddr 10.0.0.5 rport 61665 tcptype passive"
        let candidate = try ICECandidate(sdpAttribute: text)
        #expect(candidate.kind == .srflx)
        #expect(candidate.relatedAddress == "10.0.0.5")
        #expect(candidate.relatedPort == 61665)
        #expect(candidate.sdpAttribute == text)
        #expect(try ICECandidate(sdpAttribute: candidate.sdpAttribute) == candidate)
    }

    @Test(arguments: [
        ("foo:1 1 UDP 1 1.2.3.4 5 typ host", ICECandidateError.missingPrefix),
        ("candidate:1 1 UDP 1 1.2.3.4 5 typ", .missingField("type")),
        ("candidate:1 1 UDP 1", .missingField("address")),
        ("candidate:", .missingField("foundation")),
        ("candidate:1 0 UDP 1 1.2.3.4 5 typ host", .invalidComponent("0")),
        ("candidate:1 x UDP 1 1.2.3.4 5 typ host", .invalidComponent("x")),
        ("candidate:1 1 UDP 99999999999 1.2.3.4 5 typ host", .invalidPriority("99999999999")),
        ("candidate:1 1 UDP 1 1.2.3.4 70000 typ host", .invalidPort("70000")),
        ("candidate:1 1 UDP 1 1.2.3.4 5 type host", .unexpectedToken("type", expected: "typ")),
        ("candidate:1 1 UDP 1 1.2.3.4 5 typ nat", .invalidType("nat")),
        ("candidate:f@o 1 UDP 1 1.2.3.4 5 typ host", .invalidFoundation("f@o")),
        ("candidate:1 1 UDP 1 1.2.3.4 5 typ srflx raddr", .missingValue(for: "raddr")),
        ("candidate:1 1 UDP 1 1.2.3.4 5 typ srflx raddr 1.1.1.1 rport x", .invalidPort("x")),
    ])
    func rejectsMalformed(text: String, expected: ICECandidateError) {
        #expect(throws: expected) { try ICECandidate(sdpAttribute: text) }
    }
}
