import Agent
import AgentdCore
import Foundation
import JobQueue

/// A submit's optional `id` (the client's idempotency key: a retry with it never makes a second
/// job), taken out of the body before the body's own checks.
enum JobSubmission {
    static func split(_ body: JSONValue) throws(APIError) -> (id: String?, body: JSONValue) {
        guard var object = body.objectValue, let value = object.removeValue(forKey: "id") else { return (nil, body) }
        if value == .null { return (nil, .object(object)) }
        guard let id = value.stringValue, JobID.isValid(id) else { throw .badRequest("id must be \(JobID.rule)") }
        return (id, .object(object))
    }

    static func newID() -> String {
        String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16))
    }
}
