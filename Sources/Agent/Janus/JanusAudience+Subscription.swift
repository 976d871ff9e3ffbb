import Foundation

/// The subscription side of ``JanusAudience``: one command at a time (subscribe, unsubscribe,
/// answer an offer, restart ICE), so negotiations never interleave.
extension JanusAudience {
    enum Command: Sendable {
        case subscribe([String])
        case unsubscribe([String])
        /// An offer Janus sent on its own, for the link of `generation`.
        case offer(VideoRoomSubscriber.Offer, generation: Int)
        /// An ICE restart of the link of `generation`; `done` hears how it went.
        case restartICE(generation: Int, done: CheckedContinuation<Void, Error>)
    }

    /// Starts the task that runs commands in order. It ends when ``stop()`` finishes the stream,
    /// after running (or refusing) what is queued, so no waiter is left hanging.
    func startCommandQueue() {
        let (stream, continuation) = AsyncStream<Command>.makeStream()
        commands = continuation
        Task { [weak self] in
            for await command in stream {
                guard let self else {
                    if case .restartICE(_, let done) = command { done.resume(throwing: CancellationError()) }
                    continue
                }
                await self.perform(command)
            }
        }
    }

    func enqueue(_ command: Command) {
        guard let commands, case .enqueued = commands.yield(command) else {
            if case .restartICE(_, let done) = command { done.resume(throwing: CancellationError()) }
            return
        }
    }

    func perform(_ command: Command) async {
        if case .restartICE(let generation, let done) = command {
            await restartICE(generation: generation, done: done)
            return
        }
        // Subscription changes wait for a connected link; a rejoin subscribes to everyone anyway.
        guard !stopped, phase == .connected, let session else { return }
        let generation = self.generation
        do {
            switch command {
            case .subscribe(let feeds):
                let wanted = feeds.filter { announced[$0] != nil && !subscribedFeeds.contains($0) }
                guard !wanted.isEmpty else { return }
                if let subscriber {
                    subscribedFeeds.formUnion(wanted)
                    if let offer = try await subscriber.subscribe(feeds: wanted) { try await negotiate(offer, generation: generation) }
                } else {
                    let (subscriber, offer) = try await VideoRoomSubscriber.join(
                        session: session, room: configuration.room, feeds: wanted, privateID: joined?.privateID,
                        pin: configuration.pin)
                    guard generation == self.generation else {
                        await subscriber.close()
                        return
                    }
                    self.subscriber = subscriber
                    subscribedFeeds.formUnion(wanted)
                    watch(subscriber, generation: generation)
                    try await negotiate(offer, generation: generation)
                }
            case .unsubscribe(let feeds):
                let present = feeds.filter { subscribedFeeds.contains($0) }
                subscribedFeeds.subtract(present)
                guard let subscriber, !present.isEmpty else { return }
                if let offer = try await subscriber.unsubscribe(feeds: present) { try await negotiate(offer, generation: generation) }
            case .offer(let offer, let offerGeneration):
                guard offerGeneration == generation else { return }
                try await negotiate(offer, generation: generation)
            case .restartICE:
                break
            }
        } catch {
            guard generation == self.generation else { return }
            warnings.append("\(command): \(error)")
            if let reason = Self.linkFailure(error) { linkLost(generation: generation, reason: reason) }
        }
    }

    /// Offers Janus sends on its own (a publisher left, or our subscribe came back as an event),
    /// and the subscriber handle going away.
    func watch(_ subscriber: VideoRoomSubscriber, generation: Int) {
        linkTasks.append(Task { [weak self] in
            for await message in subscriber.handle.events {
                await self?.subscriberMessage(message, generation: generation)
            }
        })
    }

    private func subscriberMessage(_ message: JanusMessage, generation: Int) {
        guard generation == self.generation else { return }
        switch message.janus {
        case "hangup":
            // Janus closed our subscriber PeerConnection (DTLS alert, ICE failed on its side):
            // its DTLS state is gone, so only a new PeerConnection helps.
            let reason = message.json["reason"]?.stringValue ?? "no reason given"
            linkLost(generation: generation, reason: "Janus hung up the subscription (\(reason))")
        case "detached":
            linkLost(generation: generation, reason: "Janus detached the subscriber handle")
        default:
            guard let data = message.pluginData, let jsep = message.jsep,
                let offer = try? VideoRoomSubscriber.offer(from: data, jsep: jsep)
            else { return }
            enqueue(.offer(offer, generation: generation))
        }
    }

    /// Answers one offer: routes first (so the first packets find their streams), then `start`.
    func negotiate(_ offer: VideoRoomSubscriber.Offer, generation: Int) async throws {
        let description = try SessionDescription.parse(offer.sdp)
        let peer = try peerConnection(generation: generation)
        let (answer, negotiated) = try await peer.answer(offer: description, dataChannelLabel: "JanusDataChannel")
        guard generation == self.generation else { return }
        // An offer without a stream list (the answer to an ICE restart's `configure`) keeps the
        // media sections of the last one.
        let streams = offer.streams.isEmpty ? offeredStreams : offer.streams
        offeredStreams = streams
        let feedsByMid = Dictionary(streams.compactMap { stream in stream.feedID.map { (stream.mid, $0) } }) { first, _ in first }
        var routes: [SubscriptionRouter.Route] = []
        for stream in negotiated where stream.isAccepted && stream.kind != .data {
            guard let feed = feedsByMid[stream.mid], let codec = stream.codec else { continue }
            routes.append(SubscriptionRouter.Route(
                mid: stream.mid, participantID: feed, kind: stream.kind == .audio ? .audio : .video, codec: codec,
                clockRate: stream.clockRate, ssrcs: stream.ssrcs, midExtensionID: stream.midExtensionID))
        }
        // Sections Janus emptied (a publisher left) come back inactive: that is no problem. A
        // section with media we cannot take (H.264) is worth a warning.
        for (index, stream) in negotiated.enumerated() where !stream.isAccepted && stream.kind != .data {
            let section = description.media[index]
            guard !section.isRejected, section.direction == "sendonly" || section.direction == "sendrecv" else { continue }
            warnings.append("mid \(stream.mid): \(stream.rejection ?? "rejected")")
        }
        let router = self.router
        let finalRoutes = routes
        try await loop.submit { router.update(routes: finalRoutes) }
        guard generation == self.generation else { return }
        reportTracks(routes)
        guard let subscriber else { return }
        try await subscriber.start(answer: answer.text)
    }

    private func reportTracks(_ routes: [SubscriptionRouter.Route]) {
        let current = Set(routes.map { TrackKey(participantID: $0.participantID, kind: $0.kind) })
        for route in routes where !tracks.contains(TrackKey(participantID: route.participantID, kind: route.kind)) {
            sink(.trackAdded(participantID: route.participantID, kind: route.kind, codec: route.codec))
        }
        for gone in tracks.subtracting(current) where announced[gone.participantID] != nil {
            sink(.trackRemoved(participantID: gone.participantID, kind: gone.kind))
        }
        tracks = current
    }

    /// The link's subscriber PeerConnection, created on first use. Its state changes come back
    /// here: a failure is a drop (ICE restart first).
    private func peerConnection(generation: Int) throws -> PeerConnection {
        if let peer { return peer }
        let router = self.router
        let sink = self.sink
        let handlers = PeerConnection.Handlers(
            onState: { [weak self] state in
                guard case .failed(let reason) = state else { return }
                Task { await self?.mediaFailed(generation: generation, reason: reason) }
            },
            onRTP: { header, packet in router.handleRTP(header, packet) },
            onRTCP: { packets in router.handleRTCP(packets) },
            onDataChannel: { event in
                if case .message(let message) = event { sink(.data(participantID: nil, payload: message.payload, at: Date())) }
            },
            onDataTransportLost: { [weak self] in
                // An ICE restart would keep the dead association: only a new link brings data back.
                Task { await self?.linkLost(generation: generation, reason: "the data channel's SCTP association was lost") }
            })
        let peer = try PeerConnection(
            loop: loop, localAddresses: configuration.iceAddresses, handlers: handlers, iceConsentFreshness: true)
        self.peer = peer
        if let ticker { loop.execute { ticker.peer = peer } }
        return peer
    }
}
