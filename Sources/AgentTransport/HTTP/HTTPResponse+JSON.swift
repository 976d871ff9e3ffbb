import AgentCore
import Foundation

/// JSON answers. Here rather than in AgentdCore because the server writes one itself: the 408 of
/// a request that did not arrive in time (``HTTPConnection``).
extension HTTPResponse {
    package static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Data((value.serialized() + "\n").utf8))
    }

    /// The API's error shape: `{"error": "<message>", "status": <code>}`.
    package static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, ["error": .string(message), "status": .integer(Int64(status))])
    }
}
