import Foundation

/// One HTTP response: a status, a content type and a body.
package struct HTTPResponse: Sendable, Equatable {
    package let status: Int
    package let contentType: String
    package let body: Data
    /// Extra headers (`Allow` on a 405, `WWW-Authenticate` on a 401).
    package var headers: [String: String] = [:]

    package static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, contentType: contentType, body: Data(text.utf8))
    }
}
