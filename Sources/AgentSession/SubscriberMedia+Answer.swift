import AgentCore
import AgentWire
import Foundation

/// Answering the platform's offers: the link's PeerConnection (made by its first offer), the
/// answer, and the routes the router needs for what the answer accepted.
extension SubscriberMedia {
    /// What one answered offer gives the adapter.
    public struct Answer: Sendable {
        /// Our answer, to send back through the signaling.
        public let sdp: SessionDescription
        /// One route per accepted audio or video section whose feed the adapter named. Not yet
        /// installed: the adapter calls ``SubscriberMedia/install(routes:)`` before it lets the
        /// sender start, so the first packets find their streams.
        public let routes: [SubscriptionRouter.Route]
        /// Offered media we could not take (a codec we lack), one line per section. Sections the
        /// sender emptied (a publisher left: inactive or port 0) are no problem and are not here.
        public let warnings: [String]
    }

    /// Answers `offer` on the link's PeerConnection, making it first when there is none.
    ///
    /// Runs on the caller's actor up to the first suspension (`nonisolated(nonsending)`), so the
    /// connection is made, or found, before a teardown on that actor can run: a teardown cannot
    /// slip between a stale negotiation and the connection it makes.
    ///
    /// - Parameters:
    ///   - feedsByMid: whose media each section carries (mid → participant id); a section with
    ///     no feed gets no route.
    ///   - dataChannelLabel: when the offer has a data section, we open a channel with this label
    ///     once SCTP is up (Janus relays data only to subscribers that opened one).
    ///   - handlers: the link's callbacks; used only when this offer makes the connection.
    nonisolated(nonsending) public func answer(
        offer: SessionDescription, feedsByMid: [String: String], dataChannelLabel: String?, handlers: LinkHandlers
    ) async throws -> Answer {
        let peer = try connection(handlers: handlers)
        let (answer, negotiated) = try await peer.answer(offer: offer, dataChannelLabel: dataChannelLabel)
        var routes: [SubscriptionRouter.Route] = []
        for stream in negotiated where stream.isReceiving {
            guard let kind = stream.kind.mediaKind, let feed = feedsByMid[stream.mid], let codec = stream.codec else { continue }
            routes.append(SubscriptionRouter.Route(
                mid: stream.mid, participantID: feed, kind: kind, codec: codec,
                clockRate: stream.clockRate, ssrcs: stream.ssrcs, midExtensionID: stream.midExtensionID,
                audioLevelExtensionID: stream.audioLevelExtensionID))
        }
        var warnings: [String] = []
        for (index, stream) in negotiated.enumerated() where !stream.isAccepted && stream.kind != .data {
            guard offer.media.indices.contains(index) else { continue }
            let section = offer.media[index]
            guard !section.isRejected, section.direction == "sendonly" || section.direction == "sendrecv" else { continue }
            warnings.append("mid \(stream.mid): \(stream.rejection ?? "rejected")")
        }
        return Answer(sdp: answer, routes: routes, warnings: warnings)
    }

    /// Gives the router the routes of an answer (on the loop, awaited): sections that keep their
    /// mid and participant keep their stream state, the rest start fresh or go away.
    public func install(routes: [SubscriptionRouter.Route]) async throws {
        let router = self.router
        try await loop.submit { router.update(routes: routes) }
    }

    /// The link's PeerConnection, made on first use: RTP and RTCP go to the router, data
    /// messages to the sink, a failure and a lost data transport to `handlers`.
    private func connection(handlers: LinkHandlers) throws(PeerConnectionError) -> PeerConnection {
        if let peer { return peer }
        let router = self.router
        let sink = self.sink
        let peerHandlers = PeerConnection.Handlers(
            onState: { state in
                guard case .failed(let reason) = state else { return }
                handlers.onFailure(reason)
            },
            onRTP: { header, packet in router.handleRTP(header, packet) },
            onRTCP: { packets in router.handleRTCP(packets) },
            onDataChannel: { event in
                if case .message(let message) = event { sink(.data(participantID: nil, payload: message.payload, at: Date())) }
            },
            onDataTransportLost: { handlers.onDataTransportLost() },
            onSelectedPair: { pair in sink(.iceSelectedPair(pair, at: Date())) })
        let made = try PeerConnection(
            loop: loop, ice: ice, iceServerCredentials: iceServerCredentials, handlers: peerHandlers, iceConsentFreshness: true)
        let peer = state.withLock { state in
            if let existing = state.peer { return existing }
            state.peer = made
            return made
        }
        if peer !== made { made.close() }
        let ticker = self.ticker
        loop.execute { ticker.peer = peer }
        return peer
    }
}
