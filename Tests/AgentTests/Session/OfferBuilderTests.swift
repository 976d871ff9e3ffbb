import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession

@Suite struct OfferBuilderTests {
    /// The codec lines of our publish offer, one section per codec, exactly as Janus reads them.
    @Test func eachCodecOffersItsRtpmapFmtpAndFeedback() throws {
        let tracks = [
            TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 11),
            TrackOffer(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 22),
            TrackOffer(mid: "2", kind: .video, codec: .vp9, payloadType: 98, ssrc: 33),
            TrackOffer(mid: "3", kind: .video, codec: .h264, payloadType: 102, ssrc: 44),
        ]
        let offer = OfferBuilder.offer(tracks: tracks, dataMid: nil, local: try AnswerBuilderTests.local(), sessionID: 7)
        let codecLines = offer.media.map { section in
            section.attributes.filter { ["rtpmap", "fmtp", "rtcp-fb"].contains($0.name) }.map { "\($0.name):\($0.value ?? "")" }
        }
        #expect(codecLines == [
            ["rtpmap:111 opus/48000/2", "fmtp:111 minptime=10;useinbandfec=1"],
            ["rtpmap:96 VP8/90000", "rtcp-fb:96 nack", "rtcp-fb:96 nack pli", "rtcp-fb:96 ccm fir"],
            ["rtpmap:98 VP9/90000", "rtcp-fb:98 nack", "rtcp-fb:98 nack pli", "rtcp-fb:98 ccm fir"],
            [
                "rtpmap:102 H264/90000", "fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f",
                "rtcp-fb:102 nack", "rtcp-fb:102 nack pli", "rtcp-fb:102 ccm fir",
            ],
        ])
        #expect(offer.media.map(\.kind) == ["audio", "video", "video", "video"])
        #expect(tracks.map(\.clockRate) == [48_000, 90_000, 90_000, 90_000])
    }

    @Test func aTrackOfACodecTakesItsKindAndDefaultPayloadType() {
        let tracks = MediaCodec.allCases.map { TrackOffer(mid: $0.name, codec: $0, ssrc: 1) }
        #expect(tracks.map(\.kind) == [.audio, .video, .video, .video])
        #expect(tracks.map(\.payloadType) == [111, 96, 98, 102])
    }

    /// A track that offers more than one codec names each under its payload type, ours first,
    /// in one section (RFC 8866 §5.14); an alternative repeating a codec or a number is left out.
    @Test func aTrackWithAlternativesOffersEveryFormatInOrder() throws {
        let track = TrackOffer(mid: "0", codec: .vp8, ssrc: 22, alternatives: [.h264, .vp8, .opus])
        #expect(track.offeredCodecs == [.vp8, .h264])
        #expect(track.offeredFormats.map(\.payloadType) == [96, 102])
        #expect(track.offeredCodecNames == "VP8/H264")
        let offer = OfferBuilder.offer(tracks: [track], dataMid: nil, local: try AnswerBuilderTests.local(), sessionID: 7)
        let section = try #require(offer.media.first)
        #expect(section.formats == ["96", "102"])
        #expect(section.attributes.filter { ["rtpmap", "fmtp", "rtcp-fb"].contains($0.name) }.map { "\($0.name):\($0.value ?? "")" } == [
            "rtpmap:96 VP8/90000", "rtcp-fb:96 nack", "rtcp-fb:96 nack pli", "rtcp-fb:96 ccm fir",
            "rtpmap:102 H264/90000", "fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f",
            "rtcp-fb:102 nack", "rtcp-fb:102 nack pli", "rtcp-fb:102 ccm fir",
        ])
        // A custom number for the first codec that an alternative's default would repeat.
        let clash = TrackOffer(mid: "0", kind: .video, codec: .vp8, payloadType: 102, ssrc: 1, alternatives: [.h264])
        #expect(clash.offeredFormats.map(\.codec) == [.vp8])
    }
}
