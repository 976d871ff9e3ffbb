import Foundation
import TestSupport
import Testing

@testable import Agent
@testable import Recorder

/// transcript.jsonl and captions.vtt: lines as utterances finish, then both in time order, the
/// WebVTT read back by ffmpeg's parser cue for cue.
@Suite(.offThePool) struct TranscriptLogTests {
    @Test func linesLiveThenSortedAndAWebVTTFFmpegReads() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let log = try TranscriptLog(directory: directory.path)
        try log.append(.init(participant: "Bob", startMs: 4200, endMs: 5100, text: "fine & you?"))
        try log.append(.init(participant: "Alice", startMs: 1200, endMs: 3450, text: "hello <everyone>\n--> all"))
        // Live: arrival order, one whole line each.
        let live = try String(contentsOfFile: directory.file("transcript.jsonl"), encoding: .utf8)
        #expect(live.split(separator: "\n").count == 2 && live.hasPrefix(#"{"participant":"Bob","start_ms":4200"#))
        try log.finish()
        let lines = try String(contentsOfFile: directory.file("transcript.jsonl"), encoding: .utf8).split(separator: "\n")
        let parsed = try lines.map { try JSONValue(parsing: String($0)) }
        #expect(parsed.map { $0["participant"]?.stringValue } == ["Alice", "Bob"])
        #expect(parsed.map { $0["start_ms"]?.integerValue } == [1200, 4200])
        #expect(parsed.first?["text"]?.stringValue == "hello <everyone>\n--> all")

        let vtt = try String(contentsOfFile: directory.file("captions.vtt"), encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT\n\n00:00:01.200 --> 00:00:03.450\n<v Alice>hello &lt;everyone&gt; --&gt; all\n"), "\(vtt)")
        #expect(vtt.contains("00:00:04.200 --> 00:00:05.100\n<v Bob>fine &amp; you?\n"))
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0",
                                                          directory.file("captions.vtt")])
        #expect(probe.errors.isEmpty, "\(probe.errors)")
        #expect(probe.output.split(separator: "\n").map(String.init) == ["1.200000,2.250000", "4.200000,0.900000"], "\(probe.output)")
    }

    @Test func timestampsPastAnHourAndEmptyCues() {
        #expect(WebVTTDocument.timestamp(3_723_004) == "01:02:03.004")
        #expect(WebVTTDocument.timestamp(360_000_000) == "100:00:00.000")
        let vtt = WebVTTDocument.render([.init(participant: "a>b\nc", startMs: 500, endMs: 100, text: "x")])
        #expect(vtt == "WEBVTT\n\n00:00:00.500 --> 00:00:00.501\n<v abc>x\n")
    }
}
