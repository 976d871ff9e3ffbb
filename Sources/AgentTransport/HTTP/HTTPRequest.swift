import Foundation

/// One HTTP request as the API sees it, copied out of libsoup on the server's loop.
package struct HTTPRequest: Sendable {
    package let method: String
    /// The path without the query, percent-decoded by libsoup.
    package let path: String
    /// Header values by lowercased name (the last one wins for repeated headers).
    package let headers: [String: String]
    package let body: Data

    package init(method: String, path: String, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method.uppercased()
        self.path = path
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}
