import Foundation

/// The session a WHIP endpoint made for our offer (RFC 9725 §4.2): the URL its `Location`
/// names, which a DELETE ends (§4.3), and the entity tag that a trickle PATCH would send in
/// `If-Match` (§4.4; we send our candidates in the offer, so nothing uses it yet).
struct WHIPResource: Sendable, Equatable {
    /// Absolute: a relative `Location` (simple-whip-server sends `/whip/resource/<id>`) is
    /// resolved against the endpoint's URL (RFC 3986 §5).
    let url: String
    let etag: String?

    /// A `Location` longer than this is not a URL we follow.
    static let maxLocationLength = 2048

    /// The resource a 201's `Location` names, relative to `endpoint`.
    /// - Throws: ``WHIPError/badLocation(_:)`` when there is none, it is too long, does not
    ///   parse, or names something other than an http(s) URL.
    init(location: String?, etag: String?, endpoint: String) throws(WHIPError) {
        guard let location, !location.isEmpty else { throw WHIPError.badLocation("the 201 has no Location header") }
        guard location.utf8.count <= Self.maxLocationLength else {
            throw WHIPError.badLocation("a Location of \(location.utf8.count) bytes")
        }
        guard let base = URL(string: endpoint), let resolved = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = resolved.scheme?.lowercased(), scheme == "http" || scheme == "https", resolved.host?.isEmpty == false
        else { throw WHIPError.badLocation("'\(location.prefix(80))' is not an http(s) URL") }
        url = resolved.absoluteString
        self.etag = etag
    }
}
