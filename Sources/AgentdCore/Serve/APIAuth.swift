import AgentTransport
import Foundation

/// The /v1 bearer token check.
package struct APIAuth: Sendable {
    package let token: String

    package init(token: String) {
        self.token = token
    }

    /// True when the request carries `Authorization: Bearer <token>` with our token. The
    /// comparison takes the same time wherever the first difference is.
    package func allows(_ request: HTTPRequest) -> Bool {
        guard let header = request.header("authorization") else { return false }
        let prefix = "bearer "
        guard header.count > prefix.count, header.prefix(prefix.count).lowercased() == prefix else { return false }
        let offered = Array(header.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces).utf8)
        let expected = Array(token.utf8)
        var difference = UInt8(offered.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < offered.count ? offered[index] : 0)
        }
        return difference == 0
    }
}
