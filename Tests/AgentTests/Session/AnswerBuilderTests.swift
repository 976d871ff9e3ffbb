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
        #expect(streams[0].audioLevelExtensionID == 4 && streams[1].audioLevelExtensionID == nil)
        #expect(streams[1].codec == .vp8 && streams[1].rtxPayloadType == nil && streams[1].ssrcs == [1111, 2222])

        // What we send back parses and says what we mean.
        let reparsed = try SessionDescription.parse(answer.text)
        #expect(reparsed.bundleGroup == ["0", "1", "2"])
        #expect(reparsed.media.map(\.mid) == ["0", "1", "2"])
        #expect(reparsed.media[0].direction == "recvonly" && reparsed.media[1].direction == "recvonly")
        #expect(reparsed.media[0].formats == ["111"])
        // RFC 6464 levels accepted on audio (they spare a speaker detector the decode).
        #expect(reparsed.media[0].attributes(named: "extmap").sorted() == ["1 urn:ietf:params:rtp-hdrext:sdes:mid", "4 urn:ietf:params:rtp-hdrext:ssrc-audio-level"])
        #expect(!reparsed.media[1].attributes(named: "extmap").contains { $0.contains("audio-level") })
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
            a=rtpmap:102 H265/90000\r
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
        #expect(streams[0].rejection?.contains("H265") == true)
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

    /// The H.264 formats of a Chromium offer's video section (rtcp-fb and RTX fmtp lines as
    /// Chromium writes them), one per profile and packetization mode.
    static let chromiumH264Formats = """
        a=rtpmap:102 H264/90000\r
        a=rtcp-fb:102 goog-remb\r
        a=rtcp-fb:102 transport-cc\r
        a=rtcp-fb:102 ccm fir\r
        a=rtcp-fb:102 nack\r
        a=rtcp-fb:102 nack pli\r
        a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f\r
        a=rtpmap:103 rtx/90000\r
        a=fmtp:103 apt=102\r
        a=rtpmap:104 H264/90000\r
        a=rtcp-fb:104 nack\r
        a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f\r
        a=rtpmap:105 rtx/90000\r
        a=fmtp:105 apt=104\r
        a=rtpmap:106 H264/90000\r
        a=fmtp:106 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f\r
        a=rtpmap:108 H264/90000\r
        a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f\r
        a=rtpmap:127 H264/90000\r
        a=fmtp:127 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f\r
        a=rtpmap:39 H264/90000\r
        a=fmtp:39 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=4d001f\r
        a=rtpmap:112 H264/90000\r
        a=fmtp:112 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=64001f\r
        a=rtpmap:96 VP8/90000\r
        a=rtpmap:120 H264/90000\r
        a=fmtp:120 packetization-mode=2;profile-level-id=42e01f\r

        """

    static func videoOffer(formats: String, extra: String = "") throws -> SessionDescription {
        try SessionDescription.parse("""
            v=0\r
            o=- 1 1 IN IP4 10.77.0.2\r
            s=-\r
            t=0 0\r
            m=video 9 UDP/TLS/RTP/SAVPF \(formats)\r
            a=mid:v\r
            a=sendonly\r

            """ + chromiumH264Formats + extra)
    }

    /// RFC 6184 §8.2.1: of several H.264 formats, one with packetization-mode 1; its fmtp goes
    /// back in the answer as offered.
    @Test(arguments: [
        ("104 105 102 103 106 108", 102),  // mode 0 listed first: the first mode 1 wins
        ("108 39 106 127", 106),
        ("112 104", 112),  // High profile: we record, we do not decode
        ("104 108 39", 104),  // mode 0 only: the first of them
        ("120 104", 104),  // mode 2 is never taken
        ("102 96", 102),
        ("96 102", 96),  // the offer's first codec still wins
    ] as [(String, UInt8)])
    func anH264OfferGetsItsPacketizationMode1Format(formats: String, chosen: UInt8) throws {
        let offer = try Self.videoOffer(formats: formats)
        let (answer, streams) = try AnswerBuilder.answer(to: offer, local: Self.local())
        #expect(streams[0].payloadType == chosen)
        #expect(answer.media[0].formats == [String(chosen)])
        let reparsed = try SessionDescription.parse(answer.text)
        #expect(reparsed.media[0].formatParameters(payloadType: chosen) == offer.media[0].formatParameters(payloadType: chosen))
        if streams[0].codec == .h264 {
            #expect(reparsed.media[0].rtpMaps == [RTPMap(payloadType: chosen, encodingName: "H264", clockRate: 90_000)])
            #expect(reparsed.media[0].attributes(named: "rtcp-fb").contains("\(chosen) nack pli"))
        }
    }

    @Test func anH264OfferOfTheInterleavedModeOnlyIsRejected() throws {
        let (_, streams) = try AnswerBuilder.answer(
            to: Self.videoOffer(formats: "120", extra: "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:a\r\na=sendonly\r\na=rtpmap:111 opus/48000/2\r\n"),
            local: Self.local())
        #expect(streams.map(\.isAccepted) == [false, true])
        #expect(streams[0].rejection == "no codec we can receive (offered: H264)")
    }

    /// No fmtp means packetization-mode 0 (RFC 6184 §8.1), which we take.
    @Test func h264WithoutParametersIsMode0AndAccepted() {
        #expect(MediaCodec.h264.receiveRank(formatParameters: nil) == 1)
        #expect(MediaCodec.h264.receiveRank(formatParameters: "profile-level-id=42e01f; packetization-mode=1") == 0)
        #expect(MediaCodec.h264.receiveRank(formatParameters: "PACKETIZATION-MODE=2") == nil)
        #expect(MediaCodec.vp8.receiveRank(formatParameters: nil) == 0)
    }
}
