import Foundation
import Testing

@testable import Recorder

@Suite struct DataMessageLogTests {
    static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func object(_ line: String) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(parsed as? [String: Any])
    }

    @Test func exactLineLayout() throws {
        let sink = MemoryByteSink()
        let log = DataMessageLog(sink: sink)
        try log.append(tMs: 1520, from: "alice", text: "hi")
        try log.append(tMs: 1733, from: "bob", binary: [0x00, 0x01, 0x02, 0xFF])
        #expect(String(decoding: sink.bytes, as: UTF8.self)
            == "{\"t_ms\":1520,\"from\":\"alice\",\"text\":\"hi\"}\n{\"t_ms\":1733,\"from\":\"bob\",\"base64\":\"AAEC/w==\"}\n")
        #expect(log.linesWritten == 2)
        #expect(log.bytesWritten == Int64(sink.bytes.count))
    }

    @Test func awkwardTextParsesBackExactly() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let path = directory.file("data.jsonl")
        let log = try DataMessageLog(path: path)
        let texts = [
            #"say "hi" \ bye"#,
            "two\nlines\r\nand\ttab",
            "control \u{00}\u{01}\u{08}\u{0C}\u{1B}\u{1F} end",
            "héllo wörld — 日本語 🎉👍🏽",
            "separators \u{2028} \u{2029} and slash /",
            "",
        ]
        for (index, text) in texts.enumerated() {
            try log.append(tMs: Int64(index * 10), from: "Zoë \"Z\"\n", text: text)
        }
        try log.append(tMs: 99, from: "bin", binary: Array(0...255))
        // Text channel carrying invalid UTF-8 (a lone continuation byte) falls back to base64.
        try log.append(tMs: 100, from: "x", payload: [0x61, 0x80, 0x62], isText: true)
        try log.append(tMs: 101, from: "x", payload: Array("ok".utf8), isText: true)
        try log.close()
        try log.close()

        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.last == UInt8(ascii: "\n"))
        let lines = Self.lines(bytes)
        #expect(lines.count == texts.count + 3 + 1)  // the trailing newline leaves one empty piece
        #expect(lines.last == "")
        for (index, text) in texts.enumerated() {
            let object = try Self.object(lines[index])
            #expect(object["text"] as? String == text)
            #expect(object["from"] as? String == "Zoë \"Z\"\n")
            #expect(object["t_ms"] as? Int == index * 10)
            #expect(Set(object.keys) == ["t_ms", "from", "text"])
        }
        let binary = try Self.object(lines[texts.count])
        #expect(Set(binary.keys) == ["t_ms", "from", "base64"])
        let base64 = try #require(binary["base64"] as? String)
        let decoded = try #require(Data(base64Encoded: base64))
        #expect([UInt8](decoded) == Array(0...255))
        #expect(try Self.object(lines[texts.count + 1])["base64"] as? String == "YYBi")
        #expect(try Self.object(lines[texts.count + 2])["text"] as? String == "ok")
        // Raw control characters never reach the file, so each message really is one line.
        #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A })
        #expect(!lines[4].contains("\u{2028}"))
        #expect(throws: SinkError.self) { try log.append(tMs: 1, from: "late", text: "x") }
    }
}
