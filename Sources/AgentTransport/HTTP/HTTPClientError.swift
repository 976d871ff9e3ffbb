/// Why an ``HTTPClient`` request got no response to hand back.
///
/// A response with any status (a 403, a 503) is not an error here: the caller reads the status.
/// These are the cases where no usable response came at all.
package enum HTTPClientError: Error, Equatable, Sendable {
    /// The URL could not be parsed, or is not http:// or https://.
    case invalidURL(String)
    /// The server's host answered the TCP connect with a reset: nobody listens on that port.
    case connectionRefused(String)
    /// No route to the host or its network (the lab's guard route when the lab is down).
    case unreachable(String)
    /// No complete response within the request's timeout.
    case timedOut(Duration)
    /// The response's body went past the client's limit; the rest was not read.
    case responseTooLarge(limit: Int)
    /// The caller's task was cancelled.
    case cancelled
    /// The client was closed before or while the request ran.
    case closed
    /// Anything else the connection or libsoup reported (TLS, a malformed response, a reset).
    case failed(String)
}
