import Foundation

/// The entry point of the room API: joins channels (rooms on servers), each independent of the
/// others, and runs their connections on a small pool of transport loops.
///
/// ```swift
/// let engine = AgentEngine()
/// let lobby = try await engine.join(server: url, room: "lobby", token: token, options: .init(iceAddresses: addresses))
/// let stage = try await engine.join(server: url, room: "stage", token: token,
///                                   options: .init(role: .host, display: "bot", iceAddresses: addresses,
///                                                  host: HostOptions(tracks: tracks)))
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

    /// An engine with up to `loopCount` transport loops of its own (default: one per core),
    /// started as channels need them and stopped by ``shutdown()``.
    public init(loopCount: Int = ProcessInfo.processInfo.activeProcessorCount, loopName: String = "agentd.transport") {
        self.loopCount = max(1, loopCount)
        self.loopName = loopName
        loops = []
        ownsLoops = true
    }

    /// An engine on loops the caller owns (and stops after ``shutdown()``).
    public init(loops: [EventLoop]) {
        precondition(!loops.isEmpty, "AgentEngine needs at least one loop")
        self.loops = loops
        loopCount = loops.count
        loopName = loops[0].name
        ownsLoops = false
    }

    /// Joins `room` on `server` and returns the channel once it is in the room (a host: once its
    /// media flows). Its ``Channel/events`` start with `connecting`, `connected`.
    ///
    /// - Parameters:
    ///   - server: the signaling URL (Janus: its WebSocket, e.g. `ws://10.77.0.2:8188/`).
    ///   - room: the room (channel) name, ``ChannelName``'s rule.
    ///   - token: the core token sent on every request (Janus `token_auth`); renew it with
    ///     ``Channel/renewToken(_:)``. Room tokens and pins go in ``ChannelOptions/pin``.
    /// - Throws: ``AgentError``: `invalidName`, `alreadyJoined` (this engine is in that room on
    ///   that server, or joining it), and what the server or network did (`tokenExpired`,
    ///   `tokenRefused`, `roomNotFound`, `roomRefused`, `codecRefused`, `unreachable`,
    ///   `signalingFailed`, `mediaFailed`). A refused join is tried once, never retried.
    public func join(server: String, room: String, token: String? = nil, options: ChannelOptions = ChannelOptions()) async throws -> Channel {
        guard !shutDown else { throw AgentError.channelClosed }
        guard ChannelName.isValid(room) else { throw AgentError.invalidName(room) }
        let key = ChannelKey(server: server, room: room)
        guard !reserved.contains(key) else { throw AgentError.alreadyJoined(server: server, room: room) }
        reserved.insert(key)
        let channel = Channel(server: server, room: room, key: key, token: token, options: options, loop: takeLoop())
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
