/// A built report: report.json's content and the thumbnails report.html embeds.
public struct ReportDocument: Sendable, Equatable {
    public var report: RecordingReport
    /// PNG bytes by participant ``ParticipantReport/name``; a participant without a decodable
    /// keyframe has none.
    public var thumbnails: [String: [UInt8]]

    public init(report: RecordingReport, thumbnails: [String: [UInt8]] = [:]) {
        self.report = report
        self.thumbnails = thumbnails
    }
}
