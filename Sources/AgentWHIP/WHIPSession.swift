import AgentCore
import AgentSession
import AgentTransport
import AgentWire
import Foundation

/// The WHIP adapter behind ``RoomSession`` (RFC 9725): a host that publishes into whatever room
/// the endpoint stands for. It POSTs our offer (every candidate gathered already: no trickle
/// PATCH), takes the `201 Created` with its `Location` and answer, and runs the same
/// ``PublisherMedia`` a Janus host does, so tracks, pacing, NACK answers and sender reports are the
/// same. Leaving DELETEs the resource (bounded), so the endpoint is free for the next session.
///
/// WHIP has no roster, no subscriptions and no data: ``capabilities`` is ``RoomSessionCapabilities/publish``
/// alone, and the channel refuses anything else before a request is sent. A failed media
/// connection after the publish reaches the channel as
/// ``ConnectionState/disconnected(reason:)``, as a Janus hangup does.
public actor WHIPSession: RoomSession {
    public nonisolated let capabilities: RoomSessionCapabilities = [.publish]
    public nonisolated let join: RoomJoin
    private var credentials: RoomCredentials
    private let loop: EventLoop
    private let sink: @Sendable (RoomEvent) -> Void
    private let client: HTTPClient
    private var media: PublisherMedia?
    private var resource: WHIPResource?
    private var published: RoomPublication?
    /// Why the media connection failed, once it has: reported as a drop once published.
    private var mediaFailure: String?

    /// How long leaving waits for the endpoint to take the DELETE.
    static let deleteTimeout = Duration.seconds(5)
    /// The most of an error answer's body that goes into a message.
    static let bodyExcerpt = 200

    /// A session for `join` (a ``RoomEndpoint/whip(url:)`` endpoint), on the context's loop,
    /// reporting to its sink. The bearer token is `credentials.token`; the pin is unused.
    public init(join: RoomJoin, credentials: RoomCredentials, context: RoomSessionContext) {
        self.join = join
        self.credentials = credentials
        loop = context.loop
        let events = context.events
        sink = { events(.room($0)) }
        client = HTTPClient(loop: context.loop, maxResponseBodySize: 256 * 1024)
    }

    /// The URL the offer goes to.
    private var endpoint: String { join.server }

    /// WHIP has nothing to join before the offer: this only checks the role and the URL.
    public func connect() async throws(AgentError) {
        guard join.role == .host else { throw AgentError.unsupported("an audience on a WHIP endpoint (WHIP only publishes)") }
        guard let scheme = URLComponents(string: endpoint)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw AgentError(WHIPError.http(.invalidURL(endpoint)), endpoint: endpoint)
        }
    }

    public func publish(tracks: [TrackOffer], dataChannel: Bool) async throws(AgentError) -> RoomPublication {
        guard join.role == .host else { throw AgentError.notHost }
        guard !dataChannel else { throw AgentError.unsupported("a data channel on a WHIP endpoint (WHIP carries media only)") }
        do {
            guard media == nil else { throw WHIPError.alreadyPublished }
            let media = try PublisherMedia(loop: loop, ice: join.ice, iceServerCredentials: credentials.iceServer) { [weak self] reason in
                Task { await self?.mediaFailed(reason) }
            }
            self.media = media
            let offer = try await media.offer(tracks: tracks, dataChannelLabel: nil)
            let answer = try await post(offer)
            let refused = OfferBuilder.tracksRefused(by: answer, offered: tracks)
            guard refused.isEmpty else { throw WHIPError.tracksRefused(refused) }
            try await media.accept(answer: answer)
            switch try await media.waitConnected(timeout: join.timeouts.connect) {
            case .connected: break
            case .failed(let reason): throw WHIPError.connectionFailed(reason)
            case .timedOut: throw WHIPError.connectionFailed("no media connection to the WHIP endpoint within \(join.timeouts.connect)")
            }
            // The codec the endpoint took for each track that offered more than one.
            let tracks = OfferBuilder.negotiated(tracks, by: answer)
            let session = try await media.startSession(tracks: tracks)
            let published = RoomPublication(publisherID: resource?.url ?? endpoint, session: session, tracks: tracks)
            self.published = published
            if let mediaFailure { reportDrop(mediaFailure) }
            return published
        } catch {
            throw AgentError.fromWHIP(error, endpoint: endpoint)
        }
    }

    /// POSTs the offer (RFC 9725 §4.2) and keeps the resource the 201 names.
    private func post(_ offer: SessionDescription) async throws -> SessionDescription {
        let response = try await client.request(
            "POST", url: endpoint, headers: authorization, body: (Data(offer.text.utf8), "application/sdp"),
            timeout: join.timeouts.connect)
        guard response.status == 201 else { throw WHIPError.status(response.status, body: Self.excerpt(response.body)) }
        resource = try WHIPResource(location: response.headers["location"], etag: response.headers["etag"], endpoint: endpoint)
        do {
            return try SessionDescription.parse(String(decoding: response.body, as: UTF8.self))
        } catch {
            throw WHIPError.badAnswer("\(error)")
        }
    }

    /// `Authorization: Bearer <token>` when there is a token (RFC 9725 §4.5).
    private var authorization: [(name: String, value: String)] {
        credentials.token.map { [(name: "Authorization", value: "Bearer \($0)")] } ?? []
    }

    /// The start of an answer's body on one line: printable ASCII only, at most ``bodyExcerpt``.
    static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(bodyExcerpt), as: UTF8.self)
        let cleaned = text.unicodeScalars.map { (0x20..<0x7f).contains($0.value) ? Character($0) : " " }
        return String(cleaned).trimmingCharacters(in: .whitespaces)
    }

    /// The media connection failed (PublisherMedia says so once). Before the publish completes,
    /// `waitConnected` reports it, or the publish reports it just after; once published, the
    /// channel's host (a bot) treats it as a drop, as a Janus hangup.
    private func mediaFailed(_ reason: String) {
        mediaFailure = reason
        if published != nil { reportDrop(reason) }
    }

    private func reportDrop(_ reason: String) {
        sink(.connectionState(.disconnected(reason: .gaveUp("the media connection to the WHIP endpoint failed: \(reason)")), at: Date()))
    }

    /// WHIP carries no data channel.
    public func send(_ payload: DataChannelMessage.Payload) async throws(AgentError) {
        throw AgentError.dataChannelUnavailable
    }

    public func sendStatistics() async -> [String: SendStreamStatistics] {
        guard published != nil, let media else { return [:] }
        return await media.statistics()
    }

    /// Nobody's tracks come to a WHIP publisher.
    public nonisolated func requestKeyframe(participantID: String, kind: MediaKind) {}

    /// The token goes on the next request (the DELETE at leave).
    public func updateCredentials(_ credentials: RoomCredentials) async {
        self.credentials = credentials
    }

    /// A bearer token says nothing about its expiry.
    public nonisolated func tokenExpiry(of credentials: RoomCredentials) -> Date? { nil }

    /// Stops the media, DELETEs the resource (waiting at most ``deleteTimeout``; a dead endpoint
    /// is tolerated) and closes the connection. Idempotent.
    public func teardown() async {
        if published != nil { await media?.stopSession() }
        published = nil
        if let resource {
            self.resource = nil
            _ = try? await client.request("DELETE", url: resource.url, headers: authorization, timeout: Self.deleteTimeout)
        }
        await media?.close()
        media = nil
        client.close()
    }
}
