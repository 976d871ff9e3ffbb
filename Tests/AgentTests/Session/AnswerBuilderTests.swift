import Testing

@testable import Agent
@testable import AgentSession
@testable import AgentTransport
@testable import AgentWire

@Suite struct AnswerBuilderTests {
    static func local() throws -> LocalTransportParameters {
        LocalTransportParameters(
            iceUfrag: "abcd", icePassword: "0123456789abcdefghijkl",
            candidates: ["1 1 UDP 2013266431 10.77.0.1 50000 typ host"],
            fingerprint: try DTLSFingerprint(sdpValue: "sha-256 " + Array(repeating: "AB", count: 32).joined(separator: ":")),
            setup: "active")
    }

    @Test func answersTheJanusOfferReceiveOnly() throws {
        let offer = try SessionDescription.parse(SessionDescriptionTests.janusOffer)
        let (answer, streams) = try AnswerBuilder.answer(to: offer, local: Self.local(), sessionID: 42)
        #expect(streams.map(\.mid) == ["0", "1", "2"])
        #expect(streams.map(\.kind) == [.audio, .video, .data])
        #expect(streams[0].codec == .opus && streams[0].payloadType == 111 && streams[0].clockRate == 48000)
        #expect(streams[0].midExtensionID == 1 && streams[0].ssrcs == [2_837_429])
        #expect(streams[1].codec == .vp8 && streams[1].rtxPayloadType == nil && streams[1].ssrcs == [1111, 2222])

        // What we send back parses and says what we mean.
        let reparsed = try SessionDescription.parse(answer.text)
        #expect(reparsed.bundleGroup == ["0", "1", "2"])
        #expect(reparsed.media.map(\.mid) == ["0", "1", "2"])
        #expect(reparsed.media[0].direction == "recvonly" && reparsed.media[1].direction == "recvonly")
        #expect(reparsed.media[0].formats == ["111"])
        #expect(reparsed.media[0].rtpMaps == [RTPMap(payloadType: 111, encodingName: "opus", clockRate: 48000, channels: 2)])
        #expect(reparsed.media[1].formats == ["96"])  // RTX offered but not taken
        #expect(reparsed.media[1].attributes(named: "rtcp-fb").contains("96 nack pli"))
        #expect(reparsed.media.allSatisfy { $0.attribute("setup") == "active" && $0.attribute("ice-ufrag") == "abcd" })
        #expect(reparsed.media[0].attributes(named: "candidate").count == 1)
        #expect(reparsed.media[1].attributes(named: "candidate").isEmpty)
        #expect(reparsed.media[2].attribute("sctp-port") == "5000")
        #expect(answer.text.contains("o=- 42 1 IN IP4 0.0.0.0\r\n"))
    }

    @Test func rejectsWhatWeCannotDecodeButKeepsOrder() throws {
        let text = """
            v=0\r
            o=- 1 1 IN IP4 10.77.0.2\r
            s=-\r
            t=0 0\r
            m=video 9 UDP/TLS/RTP/SAVPF 102\r
            a=mid:v\r
            a=sendonly\r
            a=rtpmap:102 H264/90000\r
            m=audio 9 UDP/TLS/RTP/SAVPF 0\r
            a=mid:a\r
            a=sendonly\r
            a=rtpmap:0 PCMU/8000\r
            m=video 9 UDP/TLS/RTP/SAVPF 98 96\r
            a=mid:v2\r
            a=sendonly\r
            a=rtpmap:98 VP9/90000\r
            a=rtpmap:96 VP8/90000\r

            """
        let (answer, streams) = try AnswerBuilder.answer(to: SessionDescription.parse(text), local: Self.local())
        #expect(streams.map(\.isAccepted) == [false, false, true])
        #expect(streams[0].rejection?.contains("H264") == true)
        #expect(streams[2].codec == .vp9)  // the offerer's first choice we can decode
        #expect(answer.media.map(\.port) == [0, 0, 9])
        #expect(answer.media.map(\.mid) == ["v", "a", "v2"])
        #expect(answer.bundleGroup == ["v2"])
        #expect(answer.media[2].attributes(named: "candidate").count == 1)
    }

    @Test func anOfferWithNothingReceivableIsAnError() throws {
        let text = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 0\r\na=sendonly\r\na=rtpmap:0 PCMU/8000\r\n"
        #expect(throws: AnswerBuilder.Error.self) { try AnswerBuilder.answer(to: SessionDescription.parse(text), local: Self.local()) }
        let empty = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\n"
        #expect(throws: AnswerBuilder.Error.unusableOffer("no media sections")) {
            try AnswerBuilder.answer(to: SessionDescription.parse(empty), local: Self.local())
        }
    }
}
