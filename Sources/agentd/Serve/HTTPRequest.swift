import Foundation

/// One HTTP request as the API sees it, copied out of libsoup on the server's loop.
struct HTTPRequest: Sendable {
    let method: String
    /// The path without the query, percent-decoded by libsoup.
    let path: String
    /// Header values by lowercased name (the last one wins for repeated headers).
    let headers: [String: String]
    let body: Data

    init(method: String, path: String, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method.uppercased()
        self.path = path
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}
