import AgentTransport

/// Whether the API takes a request, decided from what is known of it so far: the method, the path,
/// the headers and how many body bytes it has (declared by Content-Length, or read so far).
///
/// A pure value: the HTTP server asks it as soon as the headers are in and again after every body
/// chunk, so a request without the token, to a path that does not exist, or with a body over the
/// limit is refused before its body is read; ``APIHandler`` asks it once more with the whole
/// request, so both give the same answer. A fuzz target can call ``decide(_:bodyBytes:)`` directly.
package struct RequestAdmission: Sendable {
    /// Bodies above this are refused (413). API bodies are small JSON objects.
    package static let maxBodyBytes = 1 << 20

    package enum Decision: Equatable, Sendable {
        /// Go on: the route (with its `{id}`) serves the request once its body is in.
        case admit(APIRoute, id: String?)
        /// Answer this now; the rest of the request does not matter.
        case refuse(HTTPResponse)
    }

    package let auth: APIAuth
    package var maxBodyBytes = Self.maxBodyBytes

    package init(auth: APIAuth, maxBodyBytes: Int = Self.maxBodyBytes) {
        self.auth = auth
        self.maxBodyBytes = maxBodyBytes
    }

    /// - Parameters:
    ///   - head: the request line and headers (its body is not looked at).
    ///   - bodyBytes: the body's size as far as it is known (negative counts as 0).
    package func decide(_ head: HTTPRequest, bodyBytes: Int) -> Decision {
        // Unknown /v1 paths need the token too: without it, nothing under /v1 is revealed.
        if head.path.hasPrefix("/v1/") || head.path == "/v1", !auth.allows(head) {
            var response = HTTPResponse.error(401, "missing or wrong bearer token (send Authorization: Bearer <api token>)")
            response.headers["WWW-Authenticate"] = "Bearer realm=\"agentd\""
            return .refuse(response)
        }
        switch Router.match(method: head.method, path: head.path) {
        case .notFound:
            return .refuse(.error(404, "no such path: \(head.path)"))
        case .methodNotAllowed(let allowed):
            var response = HTTPResponse.error(405, "\(head.method) is not allowed on \(head.path) (allowed: \(allowed.joined(separator: ", ")))")
            response.headers["Allow"] = allowed.joined(separator: ", ")
            return .refuse(response)
        case .route(let route, let id):
            guard bodyBytes <= maxBodyBytes else { return .refuse(.error(413, "the body is larger than \(maxBodyBytes) bytes")) }
            return .admit(route, id: id)
        }
    }
}
