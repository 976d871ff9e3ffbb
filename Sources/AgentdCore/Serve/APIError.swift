import AgentTransport

/// A request the API refuses, with its status and message.
package struct APIError: Error, Equatable, CustomStringConvertible {
    package let status: Int
    package let message: String

    package init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    package var description: String { message }

    package static func badRequest(_ message: String) -> APIError { APIError(status: 400, message: message) }

    package var response: HTTPResponse { .error(status, message) }
}
