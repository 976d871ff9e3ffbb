import Agent

/// The publishing half of a ``Bot``: a Janus VideoRoom publisher handle, our offer with one
/// send-only section per track (and a data section), the PeerConnection, the
/// ``PublishSession`` (SR, NACK from the send history, PLI/FIR → keyframe) and the pacing timer.
actor BotPublisher {
    private let configuration: BotConfiguration
    private let loop: EventLoop
    private let emit: @Sendable (BotEvent) -> Void
    private var connection: JanusConnection?
    private var videoRoom: VideoRoom?
    private var peer: PeerConnection?
    private var publishing: PublishSession?
    private var scheduler: MediaScheduler?
    private var timer: LoopTimer?
    private var videoTrack: VideoTrack?
    private var midsByKind: [TrackKind: String] = [:]
    private var watcher: Task<Void, Never>?

    init(configuration: BotConfiguration, loop: EventLoop, emit: @escaping @Sendable (BotEvent) -> Void) {
        self.configuration = configuration
        self.loop = loop
        self.emit = emit
    }

    /// The tracks to offer for `media`: audio first, then video.
    static func tracks(for media: BotMedia) throws(BotError) -> [OfferBuilder.Track] {
        let fileKinds = media.playlist?.kinds ?? []
        if media.audioTrack != nil, fileKinds.contains(.audio) { throw .conflictingSources("an audio track and an audio file") }
        if media.videoTrack != nil, fileKinds.contains(.video) { throw .conflictingSources("a video track and a video file") }
        var tracks: [OfferBuilder.Track] = []
        if media.audioTrack != nil || fileKinds.contains(.audio) {
            tracks.append(.init(mid: String(tracks.count), kind: .audio, codec: .opus, payloadType: 111, ssrc: UInt32.random(in: 1...UInt32.max)))
        }
        if media.videoTrack != nil || fileKinds.contains(.video) {
            tracks.append(.init(mid: String(tracks.count), kind: .video, codec: .vp8, payloadType: 96, ssrc: UInt32.random(in: 1...UInt32.max)))
        }
        guard !tracks.isEmpty else { throw .nothingToPublish }
        return tracks
    }

    /// Joins, negotiates, waits for the connection and starts the media. Returns our publisher id.
    func start(media: sending BotMedia, tracks: [OfferBuilder.Track], pacingInterval: Duration) async throws -> String {
        let connection = JanusConnection(url: configuration.server, loop: loop, token: configuration.token)
        self.connection = connection
        try await connection.connect()
        let session = try await JanusSession.create(on: connection)
        let videoRoom = try await VideoRoom.attach(to: session)
        self.videoRoom = videoRoom
        if configuration.create, try await !videoRoom.exists(room: configuration.room) {
            var options = VideoRoomCreateOptions()
            options.pin = configuration.pin
            options.publishers = 16
            do {
                try await videoRoom.create(room: configuration.room, options: options)
            } catch JanusError.plugin(JanusError.Code.roomExists, _) {
                // Created by someone else meanwhile: fine.
            }
        }
        let joined = try await videoRoom.joinAsPublisher(room: configuration.room, display: configuration.display, pin: configuration.pin)
        let peer = try PeerConnection(loop: loop, localAddresses: configuration.iceAddresses)
        self.peer = peer
        let offer = try await peer.offer(tracks: tracks, dataChannelLabel: media.dataChannel ? "JanusDataChannel" : nil)
        let answer = try await publish(offer, tracks: tracks, on: videoRoom)
        try await peer.acceptAnswer(answer)
        try await waitConnected(peer)

        let publishing = try PublishSession(peer: peer, tracks: tracks)
        self.publishing = publishing
        midsByKind = Dictionary(tracks.map { ($0.kind, $0.mid) }) { first, _ in first }
        let videoTrack = media.videoTrack
        self.videoTrack = videoTrack
        let emit = self.emit
        publishing.onKeyframeRequest = { _ in
            videoTrack?.requestKeyframe()
            emit(.keyframeRequested)
        }
        let scheduler = MediaScheduler(
            publishing: publishing, audioTrack: media.audioTrack.flatMap { track in midsByKind[.audio].map { (track, $0) } },
            playlist: media.playlist, playlistMids: media.playlist == nil ? [:] : midsByKind, playbackLimit: media.playbackLimit,
            emit: emit)
        self.scheduler = scheduler
        let loop = self.loop
        timer = try await loop.submit {
            publishing.start()
            scheduler.tick()
            return loop.scheduleRepeating(every: pacingInterval) { scheduler.tick() }
        }
        if let videoTrack, let mid = midsByKind[.video] {
            videoTrack.setSink { frame in
                loop.execute {
                    publishing.send(frame: frame.bytes, mid: mid, rtpTimestamp: frame.rtpTimestamp, isKeyframe: frame.isKeyframe)
                }
            }
        }
        if media.dataChannel { await waitForDataChannel(peer) }
        watcher = Self.watch(videoRoom, emit: emit)
        return joined.id
    }

    /// Sends the offer; a section Janus rejects (or a publish Janus refuses for its codecs) means
    /// the room does not take that codec.
    private func publish(_ offer: SessionDescription, tracks: [OfferBuilder.Track], on videoRoom: VideoRoom) async throws -> SessionDescription {
        let answer = try SessionDescription.parse(try await videoRoom.publish(offer: offer.text))
        for (index, section) in answer.media.enumerated() where section.isRejected && index < tracks.count {
            throw BotError.codecRefused(codec: tracks[index].codec.rawValue, allowed: await allowedCodecs(videoRoom))
        }
        return answer
    }

    private func allowedCodecs(_ videoRoom: VideoRoom) async -> [String] {
        []
    }

    private func waitConnected(_ peer: PeerConnection) async throws {
        let deadline = ContinuousClock.now + configuration.connectTimeout
        while ContinuousClock.now < deadline {
            let state = try await loop.submit { peer.state }
            if state == .connected { return }
            if case .failed(let reason) = state { throw BotError.connectionFailed(reason) }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BotError.connectionFailed("no media connection to Janus within \(configuration.connectTimeout)")
    }

    /// Waits a little for the data channel to open, so a send right after start works. A room
    /// that refused data leaves it closed; sends then throw.
    private func waitForDataChannel(_ peer: PeerConnection) async {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            guard let open = try? await loop.submit({ peer.dataChannelStreamID != nil }) else { return }
            if open { return }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    func send(_ payload: DataChannelMessage.Payload) async throws {
        guard let peer else { throw BotError.notStarted }
        do {
            try await loop.submit { try peer.sendData(payload) }
        } catch is PeerConnectionError {
            throw BotError.dataChannelUnavailable
        }
    }

    func statistics() async -> [TrackKind: SendStreamStatistics] {
        guard let publishing else { return [:] }
        let mids = midsByKind
        return (try? await loop.submit {
            var result: [TrackKind: SendStreamStatistics] = [:]
            for (kind, mid) in mids { result[kind] = publishing.statistics(mid: mid) }
            return result
        }) ?? [:]
    }

    func playbackProgress() async -> (frames: Int, passes: Int) {
        guard let scheduler else { return (0, 0) }
        return (try? await loop.submit { (scheduler.playlistFrames, scheduler.passes) }) ?? (0, 0)
    }

    /// Reports the end of the publisher's life that does not come from us: Janus hangs up the
    /// PeerConnection, the room is destroyed, or the signaling connection closes.
    private static func watch(_ videoRoom: VideoRoom, emit: @escaping @Sendable (BotEvent) -> Void) -> Task<Void, Never> {
        Task {
            for await message in videoRoom.handle.events {
                if message.janus == "hangup" {
                    emit(.connectionLost("Janus hung up the media connection (\(message.json["reason"]?.stringValue ?? "no reason"))"))
                    return
                }
                if let data = message.pluginData, case .roomDestroyed = VideoRoomEvent(pluginData: data) {
                    emit(.connectionLost("the room was destroyed"))
                    return
                }
            }
            if !Task.isCancelled { emit(.connectionLost("the signaling connection to Janus closed")) }
        }
    }

    /// Stops the media, unpublishes and leaves. Tolerates a dead server.
    func stop() async {
        watcher?.cancel()
        watcher = nil
        videoTrack?.removeSink()
        if let timer, let publishing {
            try? await loop.submit {
                timer.cancel()
                publishing.stop()
            }
        }
        timer = nil
        if publishing != nil { try? await videoRoom?.unpublish() }
        peer?.close()
        if let videoRoom {
            await videoRoom.close()
        } else {
            await connection?.close()
        }
        videoRoom = nil
    }
}
