import Foundation

/// Writes data.jsonl: one JSON object per data-channel message, one message per line (JSON Lines).
///
///     {"t_ms":1520,"from":"alice","text":"hello \"room\"\n"}
///     {"t_ms":1733,"from":"bob","base64":"AAEC/w=="}
///
/// `t_ms` is milliseconds from the recording's t=0. Text messages keep their text; binary ones,
/// and text that is not valid UTF-8, become standard base64 (RFC 4648 §4).
///
/// Each line goes to the sink in one append (one `pwrite` for a file), so a killed recorder leaves
/// whole lines. Strings are escaped per RFC 8259 §7: `"` and `\`, and every control character
/// below U+0020, plus U+2028/U+2029 so the line is also safe to paste into JavaScript. Everything
/// else stays UTF-8.
///
/// Not thread-safe: one writer thread owns it.
public final class DataMessageLog {
    private let sink: ByteSink
    private var line: [UInt8] = []
    private var closed = false
    /// Messages logged.
    public private(set) var linesWritten = 0
    /// Bytes written to the sink.
    public private(set) var bytesWritten: Int64 = 0

    /// Creates (or truncates) the file at `path`.
    public convenience init(path: String) throws {
        try self.init(sink: FileByteSink(path: path))
    }

    public init(sink: ByteSink) {
        self.sink = sink
    }

    deinit {
        try? close()
    }

    /// Logs a text message.
    public func append(tMs: Int64, from: String, text: String) throws {
        try appendLine(tMs: tMs, from: from, key: "text", value: text)
    }

    /// Logs a binary message as base64.
    public func append(tMs: Int64, from: String, binary: [UInt8]) throws {
        try appendLine(tMs: tMs, from: from, key: "base64", value: Data(binary).base64EncodedString())
    }

    /// Logs a message as received: `isText` (the channel's string PPID) keeps it as text when it
    /// is valid UTF-8; anything else is logged as base64.
    public func append(tMs: Int64, from: String, payload: [UInt8], isText: Bool) throws {
        if isText, let text = String(validating: payload, as: UTF8.self) {
            try append(tMs: tMs, from: from, text: text)
        } else {
            try append(tMs: tMs, from: from, binary: payload)
        }
    }

    /// Closes the sink. Idempotent.
    public func close() throws {
        guard !closed else { return }
        closed = true
        try sink.close()
    }

    private func appendLine(tMs: Int64, from: String, key: String, value: String) throws {
        guard !closed else { throw SinkError(operation: "append", path: "data.jsonl", reason: "closed") }
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: #"{"t_ms":"#.utf8)
        line.append(contentsOf: String(tMs).utf8)
        line.append(contentsOf: #","from":"#.utf8)
        Self.appendJSONString(from, to: &line)
        line.append(UInt8(ascii: ","))
        Self.appendJSONString(key, to: &line)
        line.append(UInt8(ascii: ":"))
        Self.appendJSONString(value, to: &line)
        line.append(contentsOf: "}\n".utf8)
        try sink.append(line)
        try sink.flush()
        linesWritten += 1
        bytesWritten += Int64(line.count)
    }

    /// Appends `string` as a quoted JSON string (RFC 8259 §7).
    static func appendJSONString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output.append(contentsOf: #"\""#.utf8)
            case "\\": output.append(contentsOf: #"\\"#.utf8)
            case "\n": output.append(contentsOf: #"\n"#.utf8)
            case "\r": output.append(contentsOf: #"\r"#.utf8)
            case "\t": output.append(contentsOf: #"\t"#.utf8)
            case "\u{08}": output.append(contentsOf: #"\b"#.utf8)
            case "\u{0C}": output.append(contentsOf: #"\f"#.utf8)
            case "\u{00}"..."\u{1F}", "\u{2028}", "\u{2029}":
                output.append(contentsOf: #"\u"#.utf8)
                let hex = String(scalar.value, radix: 16, uppercase: false)
                output.append(contentsOf: String(repeating: "0", count: 4 - hex.count).utf8)
                output.append(contentsOf: hex.utf8)
            default:
                UTF8.encode(scalar) { output.append($0) }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
