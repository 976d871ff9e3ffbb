import AgentCore
import AgentTransport

/// What can go wrong talking to a WHIP endpoint (RFC 9725), before it becomes an ``AgentError``
/// (`AgentError+WHIP.swift`).
enum WHIPError: Error, Equatable, Sendable {
    /// No response came (refused, unreachable, timed out, too large, cancelled).
    case http(HTTPClientError)
    /// The endpoint answered the offer with something other than 201 Created. `body` is the
    /// start of its answer, cleaned for one line.
    case status(Int, body: String)
    /// A 201 without a usable `Location` (RFC 9725 §4.2 requires one).
    case badLocation(String)
    /// The answer is not an SDP we can use.
    case badAnswer(String)
    /// The endpoint rejected these tracks' sections (port 0 in the answer).
    case tracksRefused([TrackOffer])
    /// The media connection (ICE, DTLS) did not come up, or failed.
    case connectionFailed(String)
    /// Publish twice on one session.
    case alreadyPublished
}
