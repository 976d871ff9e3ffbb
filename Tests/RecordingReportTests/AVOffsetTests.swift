import Recorder
import Testing

@testable import RecordingReport

@Suite struct AVOffsetTests {
    static func webm(shift: Int64? = nil, audio: RecordingManifest.RTPNTPMapping.Source? = .senderReport,
                     video: RecordingManifest.RTPNTPMapping.Source? = .senderReport, hasVideo: Bool = true) -> RecordingManifest.File {
        let mapping = { (source: RecordingManifest.RTPNTPMapping.Source?) in source.map { RecordingManifest.RTPNTPMapping(rtp: 1, ntp: 2, wallMs: 3, source: $0) } }
        var tracks = [RecordingManifest.Track(kind: .audio, codec: "opus", rtpNtpMapping: mapping(audio))]
        if hasVideo { tracks.append(.init(kind: .video, codec: "vp8", rtpNtpMapping: mapping(video), avShiftMs: shift)) }
        return .init(path: "a.webm", format: "webm", startMs: 0, tracks: tracks)
    }

    @Test("the recorder's shift, negated; 0 when both reports came and agreed; why not, otherwise")
    func estimates() {
        #expect(AVOffset.estimate([Self.webm(shift: -12)]) == (12, "sender_reports"))
        #expect(AVOffset.estimate([Self.webm()]) == (0, "sender_reports"))
        #expect(AVOffset.estimate([Self.webm(video: .arrival)]) == (nil, "arrival_only"))
        #expect(AVOffset.estimate([Self.webm(hasVideo: false)]) == (nil, "no_video"))
        // The last part counts: after a reconnect the recorder aligns again.
        #expect(AVOffset.estimate([Self.webm(shift: 30), Self.webm(shift: -5)]) == (5, "sender_reports"))
        #expect(AVOffset.estimate([Self.webm(shift: .min)]) == (.max, "sender_reports"))
    }
}
