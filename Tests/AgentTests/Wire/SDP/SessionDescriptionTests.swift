import Testing

@testable import Agent
@testable import AgentSession
@testable import AgentWire

@Suite struct SessionDescriptionTests {
    /// The shape of a Janus 1.1 VideoRoom subscriber offer: audio, video and data, bundled.
    static let janusOffer = """
        v=0\r
        o=- 1701251829394813 1 IN IP4 10.77.0.2\r
        s=VideoRoom 1234\r
        t=0 0\r
        a=group:BUNDLE 0 1 2\r
        a=ice-options:trickle\r
        a=fingerprint:sha-256 D2:B9:31:8F:DF:24:D8:0E:ED:D2:EF:25:9E:AF:6F:B8:34:AE:53:9C:E6:F3:8F:F2:64:15:FA:E8:7F:53:2D:38\r
        a=extmap-allow-mixed\r
        a=msid-semantic: WMS *\r
        m=audio 9 UDP/TLS/RTP/SAVPF 111\r
        c=IN IP4 10.77.0.2\r
        a=sendonly\r
        a=mid:0\r
        a=rtcp-mux\r
        a=ice-ufrag:Xr1a\r
        a=ice-pwd:8QZ5GmPfpFmvDNvA9dxT3L\r
        a=ice-options:trickle\r
        a=setup:actpass\r
        a=rtpmap:111 opus/48000/2\r
        a=fmtp:111 minptime=10;useinbandfec=1\r
        a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid\r
        a=extmap:4 urn:ietf:params:rtp-hdrext:ssrc-audio-level\r
        a=msid:janus janusa0\r
        a=ssrc:2837429 cname:janus\r
        a=ssrc:2837429 msid:janus janusa0\r
        a=candidate:1 1 udp 2015363327 10.77.0.2 40122 typ host\r
        a=end-of-candidates\r
        m=video 9 UDP/TLS/RTP/SAVPF 96 97\r
        c=IN IP4 10.77.0.2\r
        a=sendonly\r
        a=mid:1\r
        a=rtcp-mux\r
        a=rtpmap:96 VP8/90000\r
        a=rtcp-fb:96 nack\r
        a=rtcp-fb:96 nack pli\r
        a=rtcp-fb:96 ccm fir\r
        a=rtpmap:97 rtx/90000\r
        a=fmtp:97 apt=96\r
        a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid\r
        a=ssrc-group:FID 1111 2222\r
        a=ssrc:1111 cname:janus\r
        a=ssrc:2222 cname:janus\r
        m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r
        c=IN IP4 10.77.0.2\r
        a=sendrecv\r
        a=mid:2\r
        a=sctp-port:5000\r

        """

    @Test func readsTheJanusOffer() throws {
        let offer = try SessionDescription.parse(Self.janusOffer)
        #expect(offer.bundleGroup == ["0", "1", "2"])
        #expect(offer.media.map(\.kind) == ["audio", "video", "application"])
        #expect(offer.media.map(\.mid) == ["0", "1", "2"])
        let audio = offer.media[0]
        #expect(audio.direction == "sendonly")
        #expect(audio.rtpMaps == [RTPMap(payloadType: 111, encodingName: "opus", clockRate: 48000, channels: 2)])
        #expect(audio.formatParameters(payloadType: 111) == "minptime=10;useinbandfec=1")
        #expect(audio.headerExtensions["urn:ietf:params:rtp-hdrext:sdes:mid"] == 1)
        #expect(audio.ssrcs == [2_837_429])
        #expect(audio.attributes(named: "candidate") == ["1 1 udp 2015363327 10.77.0.2 40122 typ host"])
        #expect(offer.attribute("ice-ufrag", media: 0) == "Xr1a")
        #expect(offer.attribute("fingerprint", media: 1)?.hasPrefix("sha-256 D2:B9") == true)
        let video = offer.media[1]
        #expect(video.rtpMaps.map(\.encodingName) == ["VP8", "rtx"])
        #expect(video.formatParameters(payloadType: 97) == "apt=96")
        #expect(video.ssrcs == [1111, 2222])
        #expect(offer.media[2].attribute("sctp-port") == "5000")
        #expect(offer.media[2].formats == ["webrtc-datachannel"])
    }

    @Test func writesBackWhatItRead() throws {
        let offer = try SessionDescription.parse(Self.janusOffer)
        let again = try SessionDescription.parse(offer.text)
        #expect(again == offer)
        #expect(offer.text.hasPrefix("v=0\r\no=- 1701251829394813 1 IN IP4 10.77.0.2\r\n"))
    }

    @Test func acceptsBareLineFeeds() throws {
        let text = "v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nt=0 0\nm=audio 0 UDP/TLS/RTP/SAVPF 0\na=mid:a\n"
        let description = try SessionDescription.parse(text)
        #expect(description.media.first?.isRejected == true)
        #expect(description.media.first?.mid == "a")
    }

    @Test(arguments: [
        ("", SDPError.empty),
        ("o=- 1 1 IN IP4 0.0.0.0\r\n", .missingVersion),
        ("v=1\r\n", .malformedLine(number: 1, line: "v=1")),
        ("v=0\r\ngarbage\r\n", .malformedLine(number: 2, line: "garbage")),
        ("v=0\r\nm=audio\r\n", .badMediaLine(number: 2, line: "m=audio")),
        ("v=0\r\nm=audio x RTP/AVP 0\r\n", .badMediaLine(number: 2, line: "m=audio x RTP/AVP 0")),
        ("v=0\r\nm=audio 70000 RTP/AVP 0\r\n", .badMediaLine(number: 2, line: "m=audio 70000 RTP/AVP 0")),
        // Fixtures: these trapped (index out of range on the port's "/" split).
        ("v=0\r\nm=audio / UDP/TLS/RTP/SAVPF 111\r\n", .badMediaLine(number: 2, line: "m=audio / UDP/TLS/RTP/SAVPF 111")),
        ("v=0\r\nm=video //2 RTP/AVP 96\r\n", .badMediaLine(number: 2, line: "m=video //2 RTP/AVP 96")),
        ("v=0\r\nm=audio +9 RTP/AVP 0\r\n", .badMediaLine(number: 2, line: "m=audio +9 RTP/AVP 0")),
        ("v=0\r\nm=audio 0000000009 RTP/AVP 0\r\n", .badMediaLine(number: 2, line: "m=audio 0000000009 RTP/AVP 0")),
    ] as [(String, SDPError)])
    func rejectsMalformedText(text: String, expected: SDPError) {
        #expect(throws: expected) { try SessionDescription.parse(text) }
    }

    /// Fuzz fixture (sdp target, minimized): `v=0\no=\r\r`. The first CR stayed in the value and
    /// the text written back ended that line early. A bare CR now ends a line, so a value never
    /// holds one: an offer's `a=fmtp:0 x\ra=injected` cannot smuggle a line into our answer.
    @Test func aBareCarriageReturnEndsALine() throws {
        let fixture = try SessionDescription.parse("v=0\no=\r\r")
        #expect(fixture.lines == [SDPLine(type: "o", value: "")])
        #expect(try SessionDescription.parse(fixture.text) == fixture)
        let offer = try SessionDescription.parse("v=0\r\nm=audio 9 RTP/AVP 0\r\na=fmtp:0 x\ra=injected\r\r\n")
        #expect(offer.media.first?.formatParameters(payloadType: 0) == "x")
        #expect(offer.media.first?.hasAttribute("injected") == true)
        #expect(try SessionDescription.parse(offer.text) == offer)
    }

    @Test func portWithCountStillReads() throws {
        #expect(try SessionDescription.parse("v=0\r\nm=audio 9/2 RTP/AVP 0\r\n").media.first?.port == 9)
    }

    /// Fixture: `a=extmap:/ …` trapped (index out of range on the id's "/" split). Every
    /// attribute reader takes hostile values without trapping, and skips what it cannot read.
    @Test func malformedAttributesAreSkippedNotFatal() throws {
        let text = [
            "v=0", "a=group:BUNDLE", "a=group:", "m=video 9 UDP/TLS/RTP/SAVPF 96 97 x",
            "a=extmap:/ urn:ietf:params:rtp-hdrext:sdes:mid", "a=extmap:/", "a=extmap:", "a=extmap:0 urn:zero",
            "a=extmap:256 urn:big", "a=extmap:-1 urn:negative", "a=extmap:3/sendonly urn:kept", "a=extmap:4",
            "a=rtpmap:", "a=rtpmap:96", "a=rtpmap:96 ", "a=rtpmap:96 /", "a=rtpmap:96 VP8/", "a=rtpmap:96 VP8/0",
            "a=rtpmap:96 VP8/-90000", "a=rtpmap:96 VP8/99999999999999999999", "a=rtpmap:+96 VP8/90000",
            "a=rtpmap:97 opus/48000/0", "a=rtpmap:97 opus/48000/-2", "a=rtpmap:97 opus/48000/", "a=rtpmap:98 VP9/90000",
            "a=fmtp:", "a=fmtp:96", "a=ssrc:", "a=ssrc: ", "a=ssrc:x", "a=ssrc:4294967296 cname:x", "a=ssrc:7 cname:y",
            "a=mid", "a=sendonly", "a=candidate:",
        ].joined(separator: "\r\n") + "\r\n"
        let description = try SessionDescription.parse(text)
        let video = try #require(description.media.first)
        #expect(video.headerExtensions == ["urn:kept": 3])
        #expect(video.rtpMaps == [
            RTPMap(payloadType: 97, encodingName: "opus", clockRate: 48000),
            RTPMap(payloadType: 97, encodingName: "opus", clockRate: 48000),
            RTPMap(payloadType: 97, encodingName: "opus", clockRate: 48000),
            RTPMap(payloadType: 98, encodingName: "VP9", clockRate: 90000),
        ])
        #expect(video.formatParameters(payloadType: 96) == nil)
        #expect(video.ssrcs == [7])
        #expect(video.mid == nil)
        #expect(video.direction == "sendonly")
        #expect(description.bundleGroup == [])
        #expect(description.attribute("mid", media: 5) == nil)
        #expect(description.attribute("mid", media: -1) == nil)
        #expect(throws: (any Error).self) { try RemoteTransportParameters(offer: description) }
        // The answer builder reads the same accessors: it finds nothing it can take, and names
        // the m= line's formats once each (96 has no readable rtpmap, x is no payload type).
        #expect(AnswerBuilder.negotiate(video, mid: "0").rejection == "no codec we can receive (offered: 96, opus, x)")
    }

    @Test func badRtpmapIsSkippedNotFatal() throws {
        let text = "v=0\r\nm=audio 9 RTP/AVP 111\r\na=rtpmap:999 opus/48000\r\na=rtpmap:111 opus/x\r\na=rtpmap:111 opus/48000/2\r\n"
        #expect(try SessionDescription.parse(text).media[0].rtpMaps.count == 1)
    }
}
