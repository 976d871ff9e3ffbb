import AgentCore
import AgentSession
import AgentTransport
import AgentWire
import Foundation

/// A host in a Janus VideoRoom: joins as a publisher everyone sees, offers one send-only section
/// per track (and a data section), checks that the room took our codecs, waits for the media
/// connection and runs a ``PublishSession`` on it (sender reports, NACK answered from the send
/// history, PLI/FIR turned into keyframe requests).
///
/// The media objects are ``PublisherMedia``'s: this actor carries its offer and Janus's answer.
/// It paces nothing itself: the caller sends encoded frames through ``RoomPublication/session`` on
/// ``loop`` (BotKit's tracks and players do). What ends the publishing from outside (Janus hangs
/// up the PeerConnection, the room is destroyed, the signaling connection closes) reaches `sink`
/// as ``RoomEvent/connectionState(_:at:)`` with ``ConnectionState/disconnected(reason:)``.
public actor JanusPublisher {
    /// What to join: a ``RoomEndpoint/janus(server:room:)`` endpoint, our display, `create`,
    /// the ICE addresses and ``RoomTimeouts/connect`` (for the signaling, then the media connection).
    public let join: RoomJoin
    /// The pin for the join (and for a room the join creates); the token went to the connection.
    private let pin: String?
    /// The TURN servers' credentials, for the media connection.
    private let iceServerCredentials: ICEServerCredentials?
    public nonisolated let loop: EventLoop
    private let sink: @Sendable (RoomEvent) -> Void
    private let connection: JanusConnection
    private var videoRoom: VideoRoom?
    /// The PeerConnection and, once connected, its PublishSession.
    private var media: PublisherMedia?
    private var joined: VideoRoomJoined?
    private var published: RoomPublication?
    private var watcher: Task<Void, Never>?

    public init(join: RoomJoin, credentials: RoomCredentials, loop: EventLoop, sink: @escaping @Sendable (RoomEvent) -> Void) {
        self.join = join
        pin = credentials.pin
        iceServerCredentials = credentials.iceServer
        self.loop = loop
        self.sink = sink
        connection = JanusConnection(url: join.server, loop: loop, token: credentials.token)
    }

    /// The VideoRoom's name (a Janus join always has one).
    private var room: String { join.room ?? "" }

    /// Connects, creates the room when asked and it is missing, and joins as a publisher that
    /// has published nothing yet.
    /// - Throws: ``JanusError`` (no such room 426, wrong pin 433, bad token 403, server unreachable).
    public func connect() async throws {
        try await connection.connect(timeout: join.timeouts.connect)
        let session = try await JanusSession.create(on: connection)
        let videoRoom = try await VideoRoom.attach(to: session)
        self.videoRoom = videoRoom
        if join.create { try await videoRoom.createIfMissing(room: room, pin: pin) }
        joined = try await videoRoom.joinAsPublisher(room: room, display: join.display, pin: pin)
    }

    /// Negotiates, waits for the media connection and starts the ``PublishSession``, after
    /// ``connect()``. With `dataChannel`, also waits (up to 5 s) for the data channel to open.
    /// - Throws: ``JanusPublisherError`` (codecs refused, no media connection, not connected) or
    ///   ``JanusError``.
    public func publish(tracks: [TrackOffer], dataChannel: Bool) async throws -> RoomPublication {
        guard let videoRoom, let joined else { throw JanusPublisherError.notStarted }
        let media = try PublisherMedia(loop: loop, ice: join.ice, iceServerCredentials: iceServerCredentials)
        self.media = media
        let offer = try await media.offer(tracks: tracks, dataChannelLabel: dataChannel ? VideoRoom.dataChannelLabel : nil)
        let answer = try await publish(offer, tracks: tracks, on: videoRoom)
        try await media.accept(answer: answer)
        try await waitConnected(media)
        // The codec Janus took for each track that offered more than one: the first of the
        // room's list that the offer names.
        let tracks = OfferBuilder.negotiated(tracks, by: answer)

        let publishing = try await media.startSession(tracks: tracks)
        let published = RoomPublication(publisherID: joined.id, session: publishing, tracks: tracks)
        self.published = published
        // A room that refused data leaves the channel closed; sends then throw.
        if dataChannel { await media.waitForDataChannel(timeout: .seconds(5)) }
        watcher = Self.watch(videoRoom, sink: sink)
        return published
    }

    /// Sends the offer; a section Janus rejects (or a publish Janus refuses for its codecs) means
    /// the room does not take that codec.
    private func publish(_ offer: SessionDescription, tracks: [TrackOffer], on videoRoom: VideoRoom) async throws -> SessionDescription {
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
        switch try await media.waitConnected(timeout: join.timeouts.connect) {
        case .connected: return
        case .failed(let reason): throw JanusPublisherError.connectionFailed(reason)
        case .timedOut: throw JanusPublisherError.connectionFailed("no media connection to Janus within \(join.timeouts.connect)")
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
