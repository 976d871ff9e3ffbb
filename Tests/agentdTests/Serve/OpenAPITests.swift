import Agent
import AgentdCore
import Foundation
import Testing

@testable import agentd

/// The served OpenAPI document against the implementation: the same paths and methods as the
/// routing table (both ways, and each one answered, not 404/405), and job responses carrying
/// every field the document's Job schema requires.
@Suite("OpenAPI", .serialized)
struct OpenAPITests {
    static let methods = ["get", "put", "post", "delete", "patch", "head", "options"]

    @Test("every routed path+method is in the document and every documented one is routed and answered")
    func pathsMatchTheRoutes() async throws {
        let daemon = try InProcessDaemon()
        let reply = try await daemon.client.get("/v1/openapi.json")
        #expect(reply.status == 200)
        let document = try #require(reply.json)
        #expect(document["openapi"]?.stringValue?.hasPrefix("3.") == true)
        let paths = try #require(document["paths"]?.objectValue)
        var documented: Set<String> = []
        for (path, item) in paths {
            for method in Self.methods where item[method] != nil { documented.insert("\(method.uppercased()) \(path)") }
        }
        let routed = Set(APIRoute.allCases.map { "\($0.method) \($0.path)" })
        #expect(documented == routed, "only documented: \(documented.subtracting(routed)); only routed: \(routed.subtracting(documented))")

        // Each documented operation is really answered (a concrete id for the template).
        for operation in documented.sorted() {
            let parts = operation.split(separator: " ")
            let path = String(parts[1]).replacingOccurrences(of: "{id}", with: "0000000000000000")
            let answer = try await daemon.client.call(String(parts[0]), path, body: parts[0] == "POST" ? "{}" : nil)
            #expect(answer.status != 405, "\(operation) → 405")
            #expect(answer.status != 404 || path.contains("0000"), "\(operation) → 404")
        }
        // Security: /v1 operations need the bearer scheme; /healthz and /metrics opt out.
        #expect(paths["/healthz"]?["get"]?["security"] == .array([]))
        #expect(paths["/v1/jobs"]?["get"]?["security"] == nil, "inherits the document's bearer security")
        await daemon.shutdown()
    }

    @Test("job responses (create, get, list, delete; recording and bot) carry the Job schema's required fields")
    func jobsCarryTheRequiredFields() async throws {
        let daemon = try InProcessDaemon()
        let client = daemon.client
        let document = try #require(try await client.get("/v1/openapi.json").json)
        let jobSchema = try #require(document["components"]?["schemas"]?["Job"])
        let requiredList = jobSchema["required"]?.arrayValue?.compactMap { $0.stringValue }
        let required = try #require(requiredList)
        #expect(required.contains("id") && required.contains("state") && required.contains("error"))
        let states = Set(jobSchema["properties"]?["state"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        #expect(states == ["queued", "running", "stopping", "done", "failed"])

        let bot = try await client.post("/v1/bots", #"{"recipe": {}}"#)
        // Nothing listens on port 1: this recording fails quickly, and a failed job is a job too.
        let recording = try await client.post("/v1/recordings", #"{"server": "ws://127.0.0.1:1/", "room": "openapi"}"#)
        var jobs = [try #require(bot.json), try #require(recording.json)]
        let recordingID = try #require(recording.json?["id"]?.stringValue)
        let failed = try await client.waitForJob(recordingID, in: ["failed"], within: .seconds(10))
        #expect(failed["error"]?.stringValue?.contains("cannot reach Janus") == true, "\(failed.serialized())")
        #expect(failed["out"]?.stringValue?.hasPrefix(daemon.outputRoot) == true)
        jobs.append(failed)
        jobs += try #require(try await client.get("/v1/jobs").json?["jobs"]?.arrayValue)
        let botID = try #require(bot.json?["id"]?.stringValue)
        jobs.append(try #require(try await client.delete("/v1/jobs/\(botID)").json))
        for job in jobs {
            let keys = Set(job.objectValue?.keys.map { $0 } ?? [])
            #expect(keys.isSuperset(of: required), "\(job.serialized()) lacks \(Set(required).subtracting(keys))")
            #expect(states.contains(job["state"]?.stringValue ?? ""))
        }
        let list = try #require(document["components"]?["schemas"]?["JobList"]?["required"])
        #expect(list == ["jobs"])
        await daemon.shutdown()
    }
}
