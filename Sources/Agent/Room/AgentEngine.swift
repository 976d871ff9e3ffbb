import Foundation

/// The entry point of the room API: joins channels (rooms on servers), each independent of the
/// others, and runs their connections on a small pool of transport loops.
///
/// ```swift
/// let engine = AgentEngine()
/// let lobby = try await engine.join(RoomJoin(endpoint: .janus(server: url, room: "lobby"), iceAddresses: addresses),
///                                   credentials: RoomCredentials(token: token))
/// let stage = try await engine.join(RoomJoin(endpoint: .janus(server: url, room: "stage"), display: "bot", role: .host,
///                                            iceAddresses: addresses),
///                                   credentials: RoomCredentials(token: token), options: ChannelOptions(host: HostOptions(tracks: tracks)))
/// …
/// await engine.leave(lobby)
/// await engine.shutdown()
/// ```
///
/// Each channel belongs to one loop for life; channels are spread over the loops in turn.
public actor AgentEngine {
    /// The channels joined (or joining) and not yet left, in join order.
    public private(set) var channels: [Channel] = []
    private var reserved: Set<ChannelKey> = []
    private let loopCount: Int
    private let loopName: String
    private var loops: [EventLoop]
    private let ownsLoops: Bool
    private var nextLoop = 0
    private var shutDown = false
    /// Makes the channels' sessions: the built-in adapters, or a test's fakes.
    private let platform: RoomPlatform
    /// What every audio track of the engine's channels is processed with unless it says otherwise.
    public nonisolated let audioProcessing: AudioProcessingDefaults

    /// An engine with up to `loopCount` transport loops of its own (default: one per core),
    /// started as channels need them and stopped by ``shutdown()``.
    public init(loopCount: Int = ProcessInfo.processInfo.activeProcessorCount, loopName: String = "agentd.transport",
                audioProcessing: AudioProcessingDefaults = .none) {
        self.loopCount = max(1, loopCount)
        self.loopName = loopName
        loops = []
        ownsLoops = true
        platform = .standard
        self.audioProcessing = audioProcessing
    }

    /// An engine on loops the caller owns (and stops after ``shutdown()``), making its channels'
    /// sessions through `platform` (tests pass fakes).
    public init(loops: [EventLoop], platform: RoomPlatform = .standard, audioProcessing: AudioProcessingDefaults = .none) {
        precondition(!loops.isEmpty, "AgentEngine needs at least one loop")
        self.loops = loops
        loopCount = loops.count
        loopName = loops[0].name
        ownsLoops = false
        self.platform = platform
        self.audioProcessing = audioProcessing
    }

    /// Joins the room of `join` and returns the channel once it is in the room (a host: once its
    /// media flows). Its ``Channel/events`` start with `connecting`, `connected`.
    ///
    /// - Parameters:
    ///   - join: where and how: the endpoint (Janus: its WebSocket, e.g. `ws://10.77.0.2:8188/`,
    ///     and the room, ``ChannelName``'s rule), display, role, `create`, ICE addresses, timeouts
    ///     and reconnect policy.
    ///   - credentials: the core token sent on every request (Janus `token_auth`; renew it with
    ///     ``Channel/renewToken(_:)``) and the room's pin or token.
    ///   - options: what only our side decides (a host's tracks, reports, the raw event sink).
    /// - Throws: ``AgentError``: `invalidName`, `alreadyJoined` (this engine is in that room on
    ///   that server, or joining it), `unsupported` (an endpoint or a setting the platform has no
    ///   way to serve), and what the server or network did (`tokenExpired`, `tokenRefused`,
    ///   `roomNotFound`, `roomRefused`, `codecRefused`, `unreachable`, `signalingFailed`,
    ///   `mediaFailed`). A refused join is tried once, never retried.
    public func join(_ join: RoomJoin, credentials: RoomCredentials = .none, options: ChannelOptions = ChannelOptions()) async throws -> Channel {
        guard !shutDown else { throw AgentError.channelClosed }
        if let room = join.room { guard ChannelName.isValid(room) else { throw AgentError.invalidName(room) } }
        var join = join
        join.ignoredParticipantIDs = []  // the channel's own business (a host's listener)
        let key = join.key
        guard !reserved.contains(key) else { throw AgentError.alreadyJoined(server: join.server, room: join.room ?? "") }
        reserved.insert(key)
        let channel = Channel(join: join, credentials: credentials, key: key, options: options, loop: takeLoop(), platform: platform,
                              renderProcessor: audioProcessing.render)
        channels.append(channel)
        do {
            try await channel.open()
        } catch {
            forget(channel)
            throw error
        }
        return channel
    }

    /// Leaves the channel's room and forgets it; its ``Channel/events`` end with
    /// `disconnected(.left)`. Idempotent.
    public func leave(_ channel: Channel) async {
        await channel.close()
        forget(channel)
    }

    /// Leaves every channel and stops the loops the engine started. Idempotent.
    public func shutdown() async {
        shutDown = true
        for channel in channels { await leave(channel) }
        guard ownsLoops else { return }
        for loop in loops { loop.shutdown() }
        loops.removeAll()
    }

    private func forget(_ channel: Channel) {
        channels.removeAll { $0 === channel }
        reserved.remove(channel.key)
    }

    private func takeLoop() -> EventLoop {
        if loops.count < loopCount, nextLoop >= loops.count {
            loops.append(EventLoop(name: loopCount == 1 ? loopName : "\(loopName).\(loops.count)"))
        }
        let loop = loops[nextLoop % loops.count]
        nextLoop = (nextLoop + 1) % loopCount
        return loop
    }
}
