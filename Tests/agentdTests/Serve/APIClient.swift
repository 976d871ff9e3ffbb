import Agent
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A tiny HTTP client for the daemon's API (plain HTTP through URLSession).
struct APIClient: Sendable {
    struct Reply: Sendable {
        let status: Int
        let body: Data
        let headers: [String: String]

        var text: String { String(decoding: body, as: UTF8.self) }
        var json: JSONValue? { try? JSONValue(parsing: text) }
    }

    let base: String
    var token: String?

    func call(_ method: String, _ path: String, body: String? = nil, token: String?? = nil) async throws -> Reply {
        var request = URLRequest(url: try #require(URL(string: base + path)))
        request.httpMethod = method
        request.timeoutInterval = 20
        if let bearer = token ?? self.token { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return Reply(status: http.statusCode, body: data, headers: headers)
    }

    func get(_ path: String) async throws -> Reply { try await call("GET", path) }
    func post(_ path: String, _ body: String) async throws -> Reply { try await call("POST", path, body: body) }
    func delete(_ path: String) async throws -> Reply { try await call("DELETE", path) }

    /// The job's state, read from `GET /v1/jobs/{id}`.
    func state(of id: String) async throws -> String? {
        try await get("/v1/jobs/\(id)").json?["state"]?.stringValue
    }

    /// Polls the job until its state is one of `states`, and returns the job.
    func waitForJob(_ id: String, in states: Set<String>, within limit: Duration) async throws -> JSONValue {
        let deadline = ContinuousClock.now + limit
        while true {
            let job = try await get("/v1/jobs/\(id)").json
            if let state = job?["state"]?.stringValue, states.contains(state), let job { return job }
            guard ContinuousClock.now < deadline else {
                throw APIClientFailure(description: "job \(id) never reached \(states.sorted()); last: \(job?.serialized() ?? "nothing")")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

struct APIClientFailure: Error, CustomStringConvertible {
    let description: String
}
