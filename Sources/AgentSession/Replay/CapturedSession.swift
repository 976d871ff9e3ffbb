import AgentWire
import Foundation

/// A capture read back: its description and every record of its dump, checked.
public struct CapturedSession: Sendable {
    public var description: CaptureDescription
    public var records: [RTPDumpRecord]

    public init(description: CaptureDescription, records: [RTPDumpRecord]) {
        self.description = description
        self.records = records
    }

    /// The largest dump read (it is read whole).
    public static let defaultMaxBytes = 1 << 30
    /// The most records read: a dump of tiny records must not make tens of millions of arrays.
    public static let maxRecords = 5_000_000

    /// Reads `capture.json` and `capture.rtpdump` of `directory`.
    public static func load(directory: String, maxBytes: Int = defaultMaxBytes) throws(CaptureError) -> CapturedSession {
        let description = try CaptureDescription.read(directory: directory)
        var records: [RTPDumpRecord] = []
        do throws(RTPDumpError) {
            var reader = try RTPDumpReader(contentsOf: directory + "/" + CaptureDescription.dumpFileName, maxBytes: maxBytes)
            while records.count <= maxRecords, let record = try reader.next() { records.append(record) }
        } catch {
            throw .invalidDump(error.description)
        }
        guard records.count <= maxRecords else { throw .invalidDump("more than \(maxRecords) records") }
        return CapturedSession(description: description, records: records)
    }

    /// The capture's wall time at its start: a replay's t=0.
    public var startedAt: Date {
        Date(timeIntervalSince1970: Double(description.startedAtNanoseconds) / 1e9)
    }

    /// Milliseconds from the dump's start to its last record (0 when empty).
    public var durationMilliseconds: Int64 {
        Int64(records.reduce(0) { max($0, $1.offsetMilliseconds) })
    }
}
