import Foundation

/// Building and watching one link of ``JanusAudience``: a WebSocket, a session, the VideoRoom
/// participant handle, and later the subscriber handle and its PeerConnection. The watchers tell
/// the ``LinkDriver`` every sign of a dead link (``linkLost(generation:reason:)``) and how the
/// keepalive probes go; its machine decides what that means.
extension JanusAudience {
    /// Connects, creates the session, attaches, creates the room when asked and it is missing,
    /// and joins, as link `generation`. On a throw, what was built stays set for ``tearDownLink()``.
    func establishLink(generation: Int) async throws {
        let connection = JanusConnection(url: configuration.join.server, loop: loop, token: token)
        self.connection = connection
        try await connection.connect(timeout: configuration.join.timeouts.connect)
        let session = try await JanusSession.create(on: connection)
        self.session = session
        let videoRoom = try await VideoRoom.attach(to: session)
        self.videoRoom = videoRoom
        let pin = configuration.credentials.pin
        if configuration.join.create { try await videoRoom.createIfMissing(room: configuration.room, pin: pin) }
        let joined = try await videoRoom.joinAsParticipant(room: configuration.room, display: configuration.join.display, pin: pin)
        self.joined = joined
        watchLink(generation: generation, connection: connection, session: session, videoRoom: videoRoom)
    }

    /// Closes the current link: watchers stop, the PeerConnection closes, and the room is left
    /// politely when the socket is still open. Routes are cleared so a new link starts fresh
    /// receive streams. Idempotent.
    func tearDownLink() async {
        generation = 0
        for task in linkTasks { task.cancel() }
        linkTasks.removeAll()
        media.closeConnection()
        let subscriber = self.subscriber, videoRoom = self.videoRoom, session = self.session, connection = self.connection
        self.subscriber = nil
        self.videoRoom = nil
        self.session = nil
        self.connection = nil
        joined = nil
        offeredStreams = []
        subscribedFeeds.removeAll()
        if let connection, await connection.isOpen {
            if let subscriber { await subscriber.close() }
            if let videoRoom {
                await videoRoom.close()
            } else {
                await session?.destroy()
            }
        }
        await connection?.close()
    }

    /// Starts the watchers of a fresh link: the participant handle's events (the roster; their
    /// end means the socket closed), session events (`timeout`) and the health probe, whose
    /// answers and misses go to the machine (two misses in a row make the link lost).
    private func watchLink(generation: Int, connection: JanusConnection, session: JanusSession, videoRoom: VideoRoom) {
        linkTasks.append(Task { [weak self] in
            for await message in videoRoom.handle.events {
                await self?.participantMessage(message, generation: generation)
            }
            await self?.linkLost(generation: generation, reason: "the signaling connection closed")
        })
        linkTasks.append(Task { [weak self] in
            for await message in session.events where message.janus == "timeout" {
                await self?.linkLost(generation: generation, reason: "Janus timed our session out")
            }
        })
        let interval = configuration.join.timeouts.healthCheck
        let driver = self.driver
        linkTasks.append(Task { [weak self] in
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                do {
                    _ = try await connection.request(.keepalive, session: session.id, timeout: min(interval, .seconds(5)))
                    driver.send(.probeAnswered(generation: generation))
                } catch JanusError.timeout {
                    driver.send(.probeMissed(generation: generation, reason: "Janus stopped answering"))
                } catch {
                    guard let reason = Self.linkFailure(error) else { continue }
                    await self?.linkLost(generation: generation, reason: reason)
                    return
                }
            }
        })
    }

    private func participantMessage(_ message: JanusMessage, generation: Int) {
        guard generation == self.generation else { return }
        if message.janus == "detached" {
            linkLost(generation: generation, reason: "Janus detached our VideoRoom handle")
            return
        }
        guard let data = message.pluginData else { return }
        handle(VideoRoomEvent(pluginData: data), generation: generation)
    }

    /// The text of an error that means the link is dead (socket closed, session or handle
    /// unknown to Janus), or nil for an error that leaves it usable.
    static func linkFailure(_ error: Error) -> String? {
        switch error as? JanusError {
        case .connectionClosed(let code, let reason):
            return "the signaling connection closed (\(code) \(reason))"
        case .server(JanusError.Code.sessionNotFound, let reason):
            return "Janus no longer knows our session (458 \(reason))"
        case .server(JanusError.Code.handleNotFound, let reason):
            return "Janus no longer knows our handle (459 \(reason))"
        default:
            return nil
        }
    }

    /// Errors that retrying cannot fix: the token or the pin.
    static func isRefusal(_ error: Error) -> Bool {
        switch (error as? JanusError)?.code {
        case JanusError.Code.unauthorized, JanusError.Code.unauthorizedPlugin, JanusError.Code.roomUnauthorized: true
        default: false
        }
    }
}
