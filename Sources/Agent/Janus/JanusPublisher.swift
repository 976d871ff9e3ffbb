import Foundation

/// A host in a Janus VideoRoom: joins as a publisher everyone sees, offers one send-only section
/// per track (and a data section), checks that the room took our codecs, waits for the media
/// connection and runs a ``PublishSession`` on it (sender reports, NACK answered from the send
/// history, PLI/FIR turned into keyframe requests).
///
/// The media objects are ``PublisherMedia``'s: this actor carries its offer and Janus's answer.
/// It paces nothing itself: the caller sends encoded frames through ``Published/session`` on
/// ``loop`` (BotKit's tracks and players do). What ends the publishing from outside (Janus hangs
/// up the PeerConnection, the room is destroyed, the signaling connection closes) reaches `sink`
/// as ``RoomEvent/connectionState(_:at:)`` with ``ConnectionState/disconnected(reason:)``.
public actor JanusPublisher {
    public struct Configuration: Sendable {
        public var server: String
        public var room: String
        public var display: String
        public var token: String?
        public var pin: String?
        public var create: Bool
        /// IPv4 addresses to gather ICE candidates on (``ICEAllowList/resolve()``).
        public var iceAddresses: [String]
        /// How long the signaling connection, and then the media connection, may take.
        public var connectTimeout: Duration

        public init(
            server: String, room: String, display: String, token: String? = nil, pin: String? = nil, create: Bool = false,
            iceAddresses: [String], connectTimeout: Duration = .seconds(15)
        ) {
            self.server = server
            self.room = room
            self.display = display
            self.token = token
            self.pin = pin
            self.create = create
            self.iceAddresses = iceAddresses
            self.connectTimeout = connectTimeout
        }
    }

    /// What ``start(tracks:dataChannel:)`` set up.
    public struct Published: Sendable {
        /// Our participant id in the room.
        public let publisherID: String
        /// Where media goes; confined to ``JanusPublisher/loop``.
        public let session: PublishSession
        public let tracks: [OfferBuilder.Track]
    }

    public let configuration: Configuration
    public nonisolated let loop: EventLoop
    private let sink: @Sendable (RoomEvent) -> Void
    private let connection: JanusConnection
    private var videoRoom: VideoRoom?
    /// The PeerConnection and, once connected, its PublishSession.
    private var media: PublisherMedia?
    private var published: Published?
    private var watcher: Task<Void, Never>?

    public init(configuration: Configuration, loop: EventLoop, sink: @escaping @Sendable (RoomEvent) -> Void) {
        self.configuration = configuration
        self.loop = loop
        self.sink = sink
        connection = JanusConnection(url: configuration.server, loop: loop, token: configuration.token)
    }

    /// Joins, negotiates, waits for the media connection and starts the ``PublishSession``.
    /// With `dataChannel`, also waits (up to 5 s) for the data channel to open.
    /// - Throws: ``JanusPublisherError`` (codecs refused, no media connection) or ``JanusError``
    ///   (no such room 426, wrong pin 433, bad token 403, server unreachable).
    public func start(tracks: [OfferBuilder.Track], dataChannel: Bool) async throws -> Published {
        try await connection.connect(timeout: configuration.connectTimeout)
        let session = try await JanusSession.create(on: connection)
        let videoRoom = try await VideoRoom.attach(to: session)
        self.videoRoom = videoRoom
        if configuration.create { try await videoRoom.createIfMissing(room: configuration.room, pin: configuration.pin) }
        let joined = try await videoRoom.joinAsPublisher(room: configuration.room, display: configuration.display, pin: configuration.pin)
        let media = try PublisherMedia(loop: loop, localAddresses: configuration.iceAddresses)
        self.media = media
        let offer = try await media.offer(tracks: tracks, dataChannelLabel: dataChannel ? VideoRoom.dataChannelLabel : nil)
        let answer = try await publish(offer, tracks: tracks, on: videoRoom)
        try await media.accept(answer: answer)
        try await waitConnected(media)

        let publishing = try await media.startSession(tracks: tracks)
        let published = Published(publisherID: joined.id, session: publishing, tracks: tracks)
        self.published = published
        // A room that refused data leaves the channel closed; sends then throw.
        if dataChannel { await media.waitForDataChannel(timeout: .seconds(5)) }
        watcher = Self.watch(videoRoom, sink: sink)
        return published
    }

    /// Sends the offer; a section Janus rejects (or a publish Janus refuses for its codecs) means
    /// the room does not take that codec.
    private func publish(_ offer: SessionDescription, tracks: [OfferBuilder.Track], on videoRoom: VideoRoom) async throws -> SessionDescription {
        let room = configuration.room
        let answer: SessionDescription
        do {
            answer = try SessionDescription.parse(try await videoRoom.publish(offer: offer.text))
        } catch {
            throw await CodecRefusalCheck.error(afterPublishError: error, tracks: tracks, room: room, videoRoom: videoRoom)
        }
        let rejected = OfferBuilder.tracksRefused(by: answer, offered: tracks)
        if !rejected.isEmpty { throw await CodecRefusalCheck.error(rejected: rejected, room: room, videoRoom: videoRoom) }
        return answer
    }

    private func waitConnected(_ media: PublisherMedia) async throws {
        switch try await media.waitConnected(timeout: configuration.connectTimeout) {
        case .connected: return
        case .failed(let reason): throw JanusPublisherError.connectionFailed(reason)
        case .timedOut: throw JanusPublisherError.connectionFailed("no media connection to Janus within \(configuration.connectTimeout)")
        }
    }

    /// Sends a data message to everyone subscribed to our data.
    /// - Throws: ``JanusPublisherError/notStarted``, ``JanusPublisherError/dataChannelUnavailable``.
    public func send(_ payload: DataChannelMessage.Payload) async throws {
        guard let media else { throw JanusPublisherError.notStarted }
        do {
            try await media.send(payload)
        } catch is PeerConnectionError {
            throw JanusPublisherError.dataChannelUnavailable
        }
    }

    /// Send-side counters per published track (by mid).
    public func statistics() async -> [String: SendStreamStatistics] {
        guard published != nil, let media else { return [:] }
        return await media.statistics()
    }

    /// Uses `token` for every later request (token renewal), without reconnecting.
    public func setToken(_ token: String?) async {
        await connection.setToken(token)
    }

    /// Reports the end of the publisher's life that does not come from us: Janus hangs up the
    /// PeerConnection, the room is destroyed, or the signaling connection closes.
    private static func watch(_ videoRoom: VideoRoom, sink: @escaping @Sendable (RoomEvent) -> Void) -> Task<Void, Never> {
        Task {
            func end(_ reason: DisconnectReason) { sink(.connectionState(.disconnected(reason: reason), at: Date())) }
            for await message in videoRoom.handle.events {
                if message.janus == "hangup" {
                    end(.gaveUp("Janus hung up the media connection (\(message.json["reason"]?.stringValue ?? "no reason"))"))
                    return
                }
                if let data = message.pluginData, case .roomDestroyed = VideoRoomEvent(pluginData: data) {
                    end(.roomDestroyed)
                    return
                }
            }
            if !Task.isCancelled { end(.gaveUp("the signaling connection to Janus closed")) }
        }
    }

    /// Stops the media, unpublishes and leaves. Idempotent; tolerates a dead server.
    public func stop() async {
        watcher?.cancel()
        watcher = nil
        if published != nil {
            await media?.stopSession()
            try? await videoRoom?.unpublish()
        }
        published = nil
        // Closed on the loop (awaited) before anyone shuts the loop down: a close merely queued
        // there could be dropped with the loop, leaking the SCTP association (and usrsctp with it).
        await media?.close()
        media = nil
        if let videoRoom {
            await videoRoom.close()
        } else {
            await connection.close()
        }
        videoRoom = nil
    }
}
