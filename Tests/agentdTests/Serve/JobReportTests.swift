import Agent
import AgentdCore
import Foundation
import RecordingReport
import TestSupport
import Testing

@testable import agentd

@Suite("JobReport", .serialized)
struct JobReportTests {
    @Test("GET /v1/jobs/{id}/report: 404 in the error shape for no job, a bot, and a recording without a report yet")
    func notFound() async throws {
        let daemon = try InProcessDaemon()
        let client = daemon.client
        let none = try await client.get("/v1/jobs/0000000000000000/report")
        #expect(none.status == 404)
        #expect(none.json?["status"] == .integer(404) && none.json?["error"]?.stringValue == "no job 0000000000000000", "\(none.text)")

        let bot = try await client.post("/v1/bots", #"{"recipe": {}}"#)
        let botID = try #require(bot.json?["id"]?.stringValue)
        let botReport = try await client.get("/v1/jobs/\(botID)/report")
        #expect(botReport.status == 404 && botReport.text.contains("not a recording"), "\(botReport.text)")

        // Nothing listens on port 1: the recording fails before it records, and has no report.
        let recording = try await client.post("/v1/recordings", #"{"server": "ws://127.0.0.1:1/", "room": "report"}"#)
        let recordingID = try #require(recording.json?["id"]?.stringValue)
        _ = try await client.waitForJob(recordingID, in: ["failed"], within: .seconds(10))
        let early = try await client.get("/v1/jobs/\(recordingID)/report")
        #expect(early.status == 404 && early.text.contains("no report yet"), "\(early.text)")
        #expect(try await client.call("GET", "/v1/jobs/\(recordingID)/report", token: .some(nil)).status == 401)
        _ = try await client.delete("/v1/jobs/\(botID)")
        await daemon.shutdown()
    }

    @Test("a recording job's report.json is served as written, as application/json")
    func servesTheReport() throws {
        let scratch = try ScratchDirectory("job-report")
        let body = #"{"version": 1, "room": "r"}"# + "\n"
        try Data(body.utf8).write(to: URL(fileURLWithPath: scratch.path(RecordingReportWriter.jsonName)))
        let job: JSONValue = ["kind": "recording", "out": .string(scratch.directory.path)]
        let response = try JobReport.response(for: job, id: "abc")
        #expect(response.status == 200 && response.contentType == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == body)
        #expect(throws: APIError.self) { try JobReport.response(for: ["kind": "bot"], id: "b") }
    }

    @Test func routes() {
        #expect(Router.match(method: "GET", path: "/v1/jobs/abc/report") == .route(.getJobReport, id: "abc"))
        #expect(Router.match(method: "DELETE", path: "/v1/jobs/abc/report") == .methodNotAllowed(allowed: ["GET"]))
    }
}
