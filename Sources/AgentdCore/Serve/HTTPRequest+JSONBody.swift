import AgentCore
import AgentTransport
import Foundation

extension HTTPRequest {
    /// The body of a POST as JSON: a 400 when it is empty or not JSON. The body is at most
    /// ``RequestAdmission/maxBodyBytes``, within the parser's own size and depth limits.
    package func jsonBody() throws(APIError) -> JSONValue {
        guard !body.isEmpty else { throw .badRequest("the body is empty; send a JSON object") }
        do {
            return try JSONValue(parsing: String(decoding: body, as: UTF8.self))
        } catch {
            throw .badRequest("the body is not valid JSON")
        }
    }
}
