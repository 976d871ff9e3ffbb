import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentWire

/// Which offered tracks an answer turns down, and which codec it takes for a track that offered
/// several, on answers Janus 1.1.2 really gave (trimmed to the lines that matter).
@Suite("OfferBuilderAnswer")
struct OfferBuilderAnswerTests {
    static let audio = TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 1)
    static let video = TrackOffer(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 2)

    static func answer(_ sections: [String]) throws -> SessionDescription {
        try SessionDescription.parse((["v=0", "o=- 1 1 IN IP4 10.77.0.2", "s=VideoRoom", "t=0 0"] + sections).joined(separator: "\r\n") + "\r\n")
    }

    static let acceptedAudio = "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 10.77.0.2\r\na=recvonly\r\na=mid:0\r\na=rtpmap:111 opus/48000/2"
    static let acceptedVideo = "m=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 10.77.0.2\r\na=recvonly\r\na=mid:1\r\na=rtpmap:96 VP8/90000"

    @Test("an answer that receives both tracks in our codecs refuses none")
    func acceptsMatchingAnswer() throws {
        let answer = try Self.answer([Self.acceptedAudio, Self.acceptedVideo])
        #expect(OfferBuilder.tracksRefused(by: answer, offered: [Self.audio, Self.video]).isEmpty)
    }

    @Test("Janus's answer in a vp9-only room: inactive, payload type 0, no rtpmap, yet port 9")
    func refusesInactiveSectionWithoutOurCodec() throws {
        let refusedVideo = "m=video 9 UDP/TLS/RTP/SAVPF 0\r\nc=IN IP4 10.77.0.2\r\na=inactive\r\na=mid:1"
        let answer = try Self.answer([Self.acceptedAudio, refusedVideo])
        #expect(OfferBuilder.tracksRefused(by: answer, offered: [Self.audio, Self.video]) == [Self.video])
    }

    @Test("a section that receives, but another codec (PCMU for our Opus), is a refusal")
    func refusesOtherCodec() throws {
        let pcmu = "m=audio 9 UDP/TLS/RTP/SAVPF 0\r\nc=IN IP4 10.77.0.2\r\na=recvonly\r\na=mid:0\r\na=rtpmap:0 PCMU/8000"
        let answer = try Self.answer([pcmu, Self.acceptedVideo])
        #expect(OfferBuilder.tracksRefused(by: answer, offered: [Self.audio, Self.video]) == [Self.audio])
    }

    @Test("port 0 and a missing section are refusals")
    func refusesRejectedAndMissing() throws {
        let rejected = "m=audio 0 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 10.77.0.2\r\na=mid:0\r\na=rtpmap:111 opus/48000/2"
        let answer = try Self.answer([rejected])
        #expect(OfferBuilder.tracksRefused(by: answer, offered: [Self.audio, Self.video]) == [Self.audio, Self.video])
    }

    /// A video track offering VP8 (96) then H.264 (102), as a Bot's track with the room's choice.
    static let eitherVideo = TrackOffer(mid: "1", codec: .vp8, ssrc: 2, alternatives: [.h264])

    @Test("a room listing h264 first takes H.264 of our VP8/H.264 track: that codec, its payload type, no alternatives")
    func takesTheCodecTheAnswerNames() throws {
        let h264 = "m=video 9 UDP/TLS/RTP/SAVPF 102\r\nc=IN IP4 10.77.0.2\r\na=recvonly\r\na=mid:1\r\na=rtpmap:102 H264/90000\r\n"
            + "a=fmtp:102 profile-level-id=42e01f;packetization-mode=1"
        let answer = try Self.answer([Self.acceptedAudio, h264])
        #expect(OfferBuilder.tracksRefused(by: answer, offered: [Self.audio, Self.eitherVideo]).isEmpty)
        let negotiated = OfferBuilder.negotiated([Self.audio, Self.eitherVideo], by: answer)
        #expect(negotiated == [Self.audio, TrackOffer(mid: "1", kind: .video, codec: .h264, payloadType: 102, ssrc: 2)])
    }

    @Test("a VP8 answer keeps VP8 and drops the alternative")
    func keepsTheFirstCodecWhenTheAnswerTakesIt() throws {
        let answer = try Self.answer([Self.acceptedAudio, Self.acceptedVideo])
        #expect(OfferBuilder.negotiated([Self.eitherVideo], by: answer) == [TrackOffer(mid: "1", codec: .vp8, ssrc: 2)])
    }

    @Test("a vp9-only room refuses a VP8/H.264 track; the refused track stays as offered")
    func refusesATrackNoneOfWhoseCodecsTheAnswerNames() throws {
        let refusedVideo = "m=video 9 UDP/TLS/RTP/SAVPF 0\r\nc=IN IP4 10.77.0.2\r\na=inactive\r\na=mid:1"
        let answer = try Self.answer([Self.acceptedAudio, refusedVideo])
        #expect(OfferBuilder.tracksRefused(by: answer, offered: [Self.audio, Self.eitherVideo]) == [Self.eitherVideo])
        #expect(OfferBuilder.negotiated([Self.eitherVideo], by: answer) == [Self.eitherVideo])
        #expect(AgentError.codecRefused(refused: [Self.eitherVideo], allowed: nil).description.contains("VP8/H264 video"))
    }

    @Test("an rtpmap of a codec we did not offer (VP9 for our VP8/H.264) is not taken")
    func ignoresACodecWeDidNotOffer() throws {
        let vp9 = "m=video 9 UDP/TLS/RTP/SAVPF 98\r\nc=IN IP4 10.77.0.2\r\na=recvonly\r\na=mid:1\r\na=rtpmap:98 VP9/90000"
        let answer = try Self.answer([vp9])
        #expect(OfferBuilder.tracksRefused(by: answer, offered: [Self.eitherVideo]) == [Self.eitherVideo])
    }
}
