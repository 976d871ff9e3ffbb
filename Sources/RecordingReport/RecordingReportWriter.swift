import Foundation
import Recorder

/// Writes report.json and report.html into a recording directory, each by a rename over a
/// hidden temporary file (removed again when the write fails, a full disk leaves nothing
/// behind), so a reader never sees half of one and a rewrite (`agentd report`) replaces the old
/// pair.
public enum RecordingReportWriter {
    public static let jsonName = "report.json"
    public static let htmlName = "report.html"

    public static func write(_ document: ReportDocument, to directory: String) throws(RecordingReportError) {
        let json: Data
        do { json = try document.report.encodedJSON() } catch {
            throw .cannotWrite(path: path(directory, jsonName), reason: "\(error)")
        }
        try write(json + Data("\n".utf8), to: path(directory, jsonName))
        try write(Data(html(document).utf8), to: path(directory, htmlName))
    }

    /// The page alone, as it is written.
    public static func html(_ document: ReportDocument) -> String {
        ReportPage(document: document).html
    }

    private static func write(_ data: Data, to path: String) throws(RecordingReportError) {
        let name = (path as NSString).lastPathComponent
        let temporary = ((path as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent(".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        do {
            let sink = try FileByteSink(path: temporary)
            try sink.append([UInt8](data))
            try sink.close()
        } catch {
            unlink(temporary)
            throw .cannotWrite(path: path, reason: (error as? SinkError)?.reason ?? "\(error)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    private static func path(_ directory: String, _ name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }
}
