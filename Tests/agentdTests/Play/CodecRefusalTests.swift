import Agent
import Testing

@testable import agentd

/// The refusal line: exit 3, our codec and the room's allowed codecs, or why those are unknown.
@Suite("CodecRefusal")
struct CodecRefusalTests {
    static let video = TrackOffer(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 2)
    static let audio = TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 1)

    @Test("names our codec and every codec the room allows")
    func namesAllowedCodecs() {
        let failure = CodecRefusal.failure(room: "r", refused: [Self.video], codecs: AllowedCodecs(audio: ["opus"], video: ["vp9", "h264"]))
        #expect(failure.code == .refused)
        #expect(failure.line == "agentd: error: room 'r' does not allow vp8 video: it allows audio opus; video vp9,h264 "
            + "(play a file in an allowed codec, or create the room with vp8 allowed)")
    }

    @Test("a room missing from the list (private) is still a refusal, saying why its codecs are unknown")
    func unlistedRoom() {
        let failure = CodecRefusal.failure(room: "r", refused: [Self.audio, Self.video], codecs: nil)
        #expect(failure.code == .refused)
        #expect(failure.what.contains("opus audio and vp8 video") && failure.what.contains("not listed"), "\(failure.line)")
    }
}
