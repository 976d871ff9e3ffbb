import Agent
import AgentdCore
import Foundation
import RecordingReport

/// `GET /v1/jobs/{id}/report`: a recording job's report.json as the recording wrote it at stop
/// (``RecordingReportAtStop``), read from its directory within a size limit. 404 in the API's
/// error shape for a bot, or before the report exists (the recording is still running).
enum JobReport {
    /// Far above any report (one with 10 000 speech intervals is about 1 MiB).
    static let limit = 16 << 20

    static func response(for job: JSONValue, id: String) throws(APIError) -> HTTPResponse {
        guard job["kind"]?.stringValue == JobKind.recording.rawValue, let out = job["out"]?.stringValue else {
            throw APIError(status: 404, message: "job \(id) is not a recording and has no report")
        }
        let path = (out as NSString).appendingPathComponent(RecordingReportWriter.jsonName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw APIError(status: 404, message: "job \(id) has no report yet: it is written when the recording stops")
        }
        do {
            let data = try BoundedFile.read(path, limit: limit)
            return .text(200, String(decoding: data, as: UTF8.self), contentType: "application/json")
        } catch {
            throw APIError(status: 500, message: "job \(id)'s report cannot be read: \(error)")
        }
    }
}
