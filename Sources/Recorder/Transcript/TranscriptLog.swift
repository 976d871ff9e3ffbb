import Foundation

/// Writes a recording's `transcript.jsonl` and `captions.vtt` (`--formats transcript`).
///
///     {"participant":"Alice","start_ms":1200,"end_ms":3450,"text":"hello everyone"}
///
/// Utterances come as each participant's recognizer finishes them, so not in timeline order
/// across participants. Each is appended to transcript.jsonl at once, one whole line per write
/// (a killed recorder keeps every finished utterance); ``finish()`` then rewrites the file in
/// start-time order and writes captions.vtt, each atomically (``AtomicFile``). A recording
/// continued in its directory (``RecordingContinuation``) writes its own part of both
/// (`transcript.part2.jsonl`, `captions.part2.vtt`), times on the recording's timeline.
///
/// Not thread-safe: one queue owns it.
public final class TranscriptLog {
    public static let jsonLinesName = "transcript.jsonl"
    public static let captionsName = "captions.vtt"

    private let directory: String
    /// This log's file names: ``jsonLinesName`` and ``captionsName``, or their part `N`.
    public let jsonLinesFileName: String
    public let captionsFileName: String
    private let sink: FileByteSink
    private(set) var utterances: [TranscriptUtterance] = []
    private var finished = false

    /// Creates (or truncates) transcript.jsonl in `directory` (its part `partNumber`).
    public init(directory: String, partNumber: Int = 1) throws {
        self.directory = directory
        let names = Self.fileNames(partNumber: partNumber)
        jsonLinesFileName = names.jsonLines
        captionsFileName = names.captions
        sink = try FileByteSink(path: (directory as NSString).appendingPathComponent(jsonLinesFileName))
    }

    /// transcript.jsonl's and captions.vtt's names in part `partNumber`.
    public static func fileNames(partNumber: Int) -> (jsonLines: String, captions: String) {
        (RecordingSegments.partPath(jsonLinesName, number: partNumber), RecordingSegments.partPath(captionsName, number: partNumber))
    }

    public func append(_ utterance: TranscriptUtterance) throws {
        guard !finished else { return }
        utterances.append(utterance)
        try sink.append(Array((Self.line(utterance) + "\n").utf8))
        try sink.flush()
    }

    /// Rewrites transcript.jsonl sorted and writes captions.vtt. Idempotent.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        try? sink.close()
        let ordered = utterances.enumerated().sorted { ($0.element.startMs, $0.offset) < ($1.element.startMs, $1.offset) }.map(\.element)
        let lines = ordered.map { Self.line($0) + "\n" }.joined()
        try AtomicFile.replace((directory as NSString).appendingPathComponent(jsonLinesFileName), with: Array(lines.utf8))
        try AtomicFile.replace((directory as NSString).appendingPathComponent(captionsFileName),
                               with: Array(WebVTTDocument.render(ordered).utf8))
    }

    static func line(_ utterance: TranscriptUtterance) -> String {
        var line: [UInt8] = Array(#"{"participant":"#.utf8)
        DataMessageLog.appendJSONString(utterance.participant, to: &line)
        line += Array(#","start_ms":\#(utterance.startMs),"end_ms":\#(utterance.endMs),"text":"#.utf8)
        DataMessageLog.appendJSONString(utterance.text, to: &line)
        line.append(UInt8(ascii: "}"))
        return String(decoding: line, as: UTF8.self)
    }
}
