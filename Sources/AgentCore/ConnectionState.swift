import Foundation

/// Where a channel's connection to the room stands, as client SDKs report it.
public enum ConnectionState: Sendable, Equatable {
    /// Joining for the first time.
    case connecting
    /// In the room, media flowing.
    case connected
    /// The connection dropped (signaling closed, Janus restarted, media failed); retrying.
    /// `attempt` counts from 1.
    case reconnecting(attempt: Int)
    /// Out of the room for good: left on request, or gave up.
    case disconnected(reason: DisconnectReason)
}

/// Why a channel is out of the room.
public enum DisconnectReason: Sendable, Equatable {
    /// ``leave`` was called (or the process is stopping).
    case left
    /// Retries ran out; the last error, as text.
    case gaveUp(String)
    /// The room was destroyed.
    case roomDestroyed
    /// The server refused us (token expired or revoked, kicked): retrying would not help.
    case refused(String)
}
