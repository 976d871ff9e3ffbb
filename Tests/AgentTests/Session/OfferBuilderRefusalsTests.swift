import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentWire

/// Which offered tracks an answer turns down, on answers Janus 1.1.2 really gave (trimmed to the
/// lines that matter).
@Suite("OfferBuilderRefusals")
struct OfferBuilderRefusalsTests {
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
}
