import Testing

@testable import Recorder

@Suite struct RecordingFormatsTests {
    @Test func parsesKnownNames() throws {
        #expect(try RecordingFormats(parsing: "webm,wav,ogg,mix,data").names == ["webm", "wav", "ogg", "mix", "data"])
        #expect(try RecordingFormats(parsing: "composite,webm").names == ["webm", "composite"])
        #expect(try RecordingFormats(parsing: "Composite").formats == [.composite])
        #expect(try RecordingFormats(parsing: " MIX , wav ,wav").formats == [.mix, .wav])
        #expect(try RecordingFormats(parsing: "opus,").formats == [.ogg])
        #expect(try RecordingFormats(parsing: "MKV, wav").formats == [.webm, .wav], "mkv names the webm format")
        #expect(RecordingFormats.default.names == ["webm", "wav", "data"])
        #expect(RecordingFormats.default.contains(.wav))
        #expect(!RecordingFormats.default.contains(.mix))
        #expect(!RecordingFormats.default.contains(.composite), "the composite costs CPU: asked for, never by default")
    }

    @Test func rejectsUnknownAndEmpty() {
        #expect(throws: RecordingFormatsError.unknownFormat("mp4")) { try RecordingFormats(parsing: "webm,mp4") }
        #expect(throws: RecordingFormatsError.unknownFormat("Wave")) { try RecordingFormats(parsing: " Wave ") }
        #expect(throws: RecordingFormatsError.empty) { try RecordingFormats(parsing: "") }
        #expect(throws: RecordingFormatsError.empty) { try RecordingFormats(parsing: " , ,") }
        #expect(RecordingFormatsError.unknownFormat("mp4").description == "unknown format 'mp4' (known: webm, wav, ogg, mix, data, composite, transcript)")
    }
}
