import Testing

@testable import Agent
@testable import AgentCore

/// A room's allowed codecs from its entry in the VideoRoom `list` reply (fields as Janus 1.1.2
/// sends them).
@Suite("AllowedCodecs from a VideoRoom list entry")
struct AllowedCodecsVideoRoomTests {
    @Test("lists are split on commas, trimmed and lower-cased; allows() ignores case")
    func parsesEntry() throws {
        let entry = try JSONValue(parsing: #"{"room": "r", "audiocodec": "opus,PCMU", "videocodec": "vp9, h264", "num_participants": 0}"#)
        let codecs = try #require(AllowedCodecs(listEntry: entry))
        #expect(codecs.audio == ["opus", "pcmu"])
        #expect(codecs.video == ["vp9", "h264"])
        #expect(codecs.allows(audio: "OPUS") && !codecs.allows(video: "VP8") && codecs.allows(video: "VP9"))
        #expect(codecs.description == "audio opus,pcmu; video vp9,h264")
    }

    @Test("an entry without codec fields is not a codec list")
    func rejectsEntryWithoutCodecs() throws {
        #expect(AllowedCodecs(listEntry: try JSONValue(parsing: #"{"room": "r"}"#)) == nil)
        #expect(AllowedCodecs(listEntry: try JSONValue(parsing: #"{"videocodec": ""}"#))?.description == "audio none; video none")
    }
}
