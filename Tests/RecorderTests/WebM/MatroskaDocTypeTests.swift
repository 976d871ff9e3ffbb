import Agent
import Testing

@testable import Recorder

@Suite struct MatroskaDocTypeTests {
    /// A real SPS and PPS (libx264 Constrained Baseline, 320x240).
    static func record() throws -> AVCDecoderConfigurationRecord {
        try AVCDecoderConfigurationRecord(
            sequenceParameterSet: [0x67, 0x42, 0xC0, 0x0D, 0xD9, 0x01, 0x41, 0xFB, 0x01, 0x10, 0x00, 0x00,
                                   0x03, 0x00, 0x10, 0x00, 0x00, 0x03, 0x03, 0xC0, 0xF1, 0x42, 0xA4, 0x80],
            pictureParameterSets: [[0x68, 0xCB, 0x83, 0xCB, 0x20]])
    }

    @Test func webmCodecsMakeAWebMFileAndH264AMatroskaOne() throws {
        let avc = WebMTrack.avc(number: 2, configuration: try Self.record())
        #expect(MatroskaDocType(tracks: [.opus(number: 1), .video(number: 2, codec: .vp9, width: 2, height: 2)]) == .webm)
        #expect(MatroskaDocType(tracks: [.opus(number: 1)]) == .webm)
        #expect(MatroskaDocType(tracks: [.opus(number: 1), avc]) == .matroska)
        #expect(MatroskaDocType(tracks: [avc]).fileExtension == "mkv")
        #expect(MatroskaDocType.webm.fileExtension == "webm")
    }

    @Test func headerNamesTheDocType() throws {
        let avcSink = MemoryByteSink()
        let avc = try WebMWriter(sink: avcSink, tracks: [.avc(number: 1, configuration: try Self.record())])
        try avc.close()
        #expect(avcSink.bytes.firstRange(of: EBML.string(MatroskaID.docType, "matroska")) != nil)
        let webmSink = MemoryByteSink()
        try WebMWriter(sink: webmSink, tracks: [.opus(number: 1)]).close()
        #expect(webmSink.bytes.firstRange(of: EBML.string(MatroskaID.docType, "webm")) != nil)
    }

    /// The AVC TrackEntry: CodecID, the record as CodecPrivate, the SPS's size.
    @Test func avcTrackEntry() throws {
        let record = try Self.record()
        let entry = WebMTrack.avc(number: 2, configuration: record).entry
        #expect(entry.firstRange(of: EBML.string(MatroskaID.codecID, "V_MPEG4/ISO/AVC")) != nil)
        #expect(entry.firstRange(of: EBML.element(MatroskaID.codecPrivate, record.bytes)) != nil)
        #expect(entry.firstRange(of: EBML.unsigned(MatroskaID.pixelWidth, 320)) != nil)
        #expect(entry.firstRange(of: EBML.unsigned(MatroskaID.pixelHeight, 240)) != nil)
        #expect(entry.firstRange(of: EBML.id(MatroskaID.codecDelay)) == nil)
    }
}
