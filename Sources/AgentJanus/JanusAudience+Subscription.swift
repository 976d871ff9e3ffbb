import AgentSession
import AgentWire
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
                let wanted = feeds.filter { announced[$0] != nil && !unpublishedFeeds.contains($0) && !subscribedFeeds.contains($0) }
                guard !wanted.isEmpty else { return }
                if let subscriber {
                    subscribedFeeds.formUnion(wanted)
                    if let offer = try await subscriber.subscribe(feeds: wanted) { try await negotiate(offer, generation: generation) }
                } else {
                    let (subscriber, offer) = try await VideoRoomSubscriber.join(
                        session: session, room: configuration.room, feeds: wanted, privateID: joined?.privateID,
                        pin: configuration.credentials.pin)
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
        // An offer without a stream list (the answer to an ICE restart's `configure`) keeps the
        // media sections of the last one.
        let streams = offer.streams.isEmpty ? offeredStreams : offer.streams
        let feedsByMid = Dictionary(streams.compactMap { stream in stream.feedID.map { (stream.mid, $0) } }) { first, _ in first }
        let answer = try await media.answer(
            offer: description, feedsByMid: feedsByMid, dataChannelLabel: VideoRoom.dataChannelLabel,
            handlers: linkHandlers(generation: generation))
        guard generation == self.generation else { return }
        offeredStreams = streams
        // Sections Janus emptied (a publisher left) come back inactive: that is no problem. A
        // section with media we cannot take (H.264) is worth a warning.
        warnings.append(contentsOf: answer.warnings)
        try await media.install(routes: answer.routes)
        guard generation == self.generation else { return }
        reportTracks(answer.routes)
        guard let subscriber else { return }
        try await subscriber.start(answer: answer.sdp.text)
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

    /// What the link's subscriber PeerConnection reports back: a failure is a drop (ICE restart
    /// first), a lost data transport a drop that needs a new link. Both are fenced by `generation`.
    private func linkHandlers(generation: Int) -> SubscriberMedia.LinkHandlers {
        SubscriberMedia.LinkHandlers(
            onFailure: { [weak self] reason in
                Task { await self?.mediaFailed(generation: generation, reason: reason) }
            },
            onDataTransportLost: { [weak self] in
                // An ICE restart would keep the dead association: only a new link brings data back.
                Task { await self?.linkLost(generation: generation, reason: "the data channel's SCTP association was lost") }
            })
    }
}
