/// How long the HTTP server waits for a client, and how much it reads of a request it refused.
///
/// A client that sends nothing, dribbles its headers (slowloris) or never finishes its body only
/// holds its own connection, and only until these run out.
package struct HTTPLimits: Sendable, Equatable {
    /// A keep-alive connection with no request on it is closed after this.
    package var idle: Duration = .seconds(30)
    /// From the connection's start (its first request) or a later request's first byte until the
    /// headers are complete; then 408.
    package var headers: Duration = .seconds(10)
    /// From the headers until the body is complete; then 408.
    package var body: Duration = .seconds(30)
    /// For the client to take the whole answer.
    package var write: Duration = .seconds(30)
    /// After a refusal sent before the body: how long, and how many bytes, the server goes on
    /// reading (and dropping) so the client sees the answer rather than a reset.
    package var drain: Duration = .seconds(2)
    package var drainBytes = 4 << 20
    /// Open connections at most, so clients cannot take the descriptors the recordings need. A
    /// connection past it makes room by closing the oldest one that is idle or still sending its
    /// headers (a slowloris client), so /healthz stays reachable; when every connection is busy
    /// with a request, the newcomer is closed instead.
    package var maxConnections = 256

    package static let standard = HTTPLimits()
}
