import Agent
import Foundation
import Testing

@testable import agentd

/// What a request can put into the daemon's log: paths, methods and headers come from anyone.
@Suite("ServeLog")
struct ServeLogTests {
    /// A path as libsoup decodes it from `/v1/x%0D%0A2025-01-01T00:00:00.000Z%20info%20job%20started`, with more controls.
    static let hostile = "/v1/x\r\n2025-01-01T00:00:00.000Z info job started id=forged\u{1B}[2J\u{7F}\u{85}\u{9B}\u{0}\tend"

    @Test("text lines escape C0, DEL and C1 control characters in the message and in every field")
    func textEscapesControls() throws {
        let lines = LogLines()
        let log = ServeLog(format: .text) { lines.append($0) }
        log.info("http \(Self.hostile)", ["path": Self.hostile, "method": "GET\u{85}X"])
        let line = lines.text
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line.debugDescription)")
        #expect(line.contains(#"path="/v1/x\r\n2025-01-01T00:00:00.000Z info job started id=forged\u{1b}[2J\u{7f}\u{85}\u{9b}\u{0}\tend""#), "\(line)")
        #expect(line.contains(#"method="GET\u{85}X""#), "\(line)")
        #expect(line.contains(#" http /v1/x\r\n2025"#), "the message is escaped too: \(line)")
    }

    @Test("plain values stay bare; quotes and backslashes in quoted values are escaped")
    func textQuoting() {
        #expect(ServeLog.quoted("recording") == "recording")
        #expect(ServeLog.quoted("") == "\"\"")
        #expect(ServeLog.quoted(#"a "b" c\d"#) == #""a \"b\" c\\d""#)
    }

    @Test("JSON lines stay valid JSON with control characters, and keep the text exactly")
    func jsonKeepsControls() throws {
        let lines = LogLines()
        let log = ServeLog(format: .json) { lines.append($0) }
        log.info("http", ["path": Self.hostile])
        #expect(!lines.text.contains("\n") && !lines.text.contains("\r"))
        let line = try JSONValue(parsing: lines.text)
        #expect(line["path"]?.stringValue == Self.hostile)
    }
}
