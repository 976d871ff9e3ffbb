import Agent
import Foundation
import TestSupport

/// An endpoint on the lab's simple-whip-server, made for one test through its own (non-standard)
/// API and destroyed afterwards on every path: `POST /whip/create {id, room, token, label}`,
/// `DELETE /whip/endpoint/:id`. The label is the publisher's display in the Janus room.
struct LabWHIPEndpoint: Sendable {
    let base: String
    let id: String
    let room: String
    let token: String
    let label: String

    /// The URL `agentd play --whip` POSTs to.
    var url: String { "\(base)/endpoint/\(id)" }

    static func with<T: Sendable>(room: String, label: String, _ body: (LabWHIPEndpoint) async throws -> T) async throws -> T {
        let base = try LabEnvironment.whipURL()
        let endpoint = LabWHIPEndpoint(
            base: base, id: LabEnvironment.freshRoom("whip"), room: room, token: "tok\(UInt32.random(in: .min ... .max))", label: label)
        let loop = EventLoop(name: "test.whip.admin")
        let client = HTTPClient(loop: loop)
        defer {
            client.close()
            loop.shutdown()
        }
        let create = try JSONSerialization.data(withJSONObject: [
            "id": endpoint.id, "room": room, "token": endpoint.token, "label": label,
        ])
        let created = try await client.request("POST", url: "\(base)/create", body: (create, "application/json"), timeout: .seconds(10))
        guard created.status == 200 else {
            throw ChildProcess.Failure(description: "POST \(base)/create: \(created.status) \(String(decoding: created.body, as: UTF8.self))")
        }
        return try await withCleanup {
            try await body(endpoint)
        } cleanup: {
            _ = try? await client.request(
                "DELETE", url: endpoint.url, headers: [(name: "Authorization", value: "Bearer \(endpoint.token)")], timeout: .seconds(10))
        }
    }
}
