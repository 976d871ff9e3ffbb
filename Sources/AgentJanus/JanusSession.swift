import Synchronization

/// A Janus session: created on a ``JanusConnection``, kept alive with a `keepalive` every
/// ~25 s (Janus drops sessions after `session_timeout`, 60 s by default), and the parent of
/// plugin handles.
public final class JanusSession: Sendable {
    public let id: Int64
    public let connection: JanusConnection
    /// Session-level events (`timeout`, and events of handles that have no stream of their own).
    public let events: AsyncStream<JanusMessage>
    private let keepalive = Mutex<Task<Void, Never>?>(nil)
    private let destroyed = Atomic<Bool>(false)

    private init(id: Int64, connection: JanusConnection, events: AsyncStream<JanusMessage>) {
        self.id = id
        self.connection = connection
        self.events = events
    }

    /// Sends `create` and starts the keepalive loop.
    /// - Throws: ``JanusError`` (403 with a bad token, timeout, closed connection...).
    public static func create(
        on connection: JanusConnection, keepaliveInterval: Duration = .seconds(25)
    ) async throws -> JanusSession {
        let reply = try await connection.request(.create)
        guard let id = reply.data?["id"]?.integerValue else {
            throw JanusError.malformed("create reply without data.id")
        }
        let session = JanusSession(id: id, connection: connection, events: await connection.events(session: id))
        session.startKeepalive(every: keepaliveInterval)
        return session
    }

    deinit {
        keepalive.withLock { $0?.cancel() }
    }

    /// Attaches a plugin (e.g. "janus.plugin.videoroom") and returns its handle.
    /// - Throws: ``JanusError/server(code:reason:)`` (405 when the token does not grant the plugin).
    public func attach(plugin: String) async throws -> JanusHandle {
        guard !destroyed.load(ordering: .acquiring) else { throw JanusError.gone("session \(id) destroyed") }
        let reply = try await connection.request(.attach, session: id, fields: ["plugin": .string(plugin)])
        guard let handleID = reply.data?["id"]?.integerValue else {
            throw JanusError.malformed("attach reply without data.id")
        }
        let events = await connection.events(session: id, handle: handleID)
        return JanusHandle(id: handleID, plugin: plugin, session: self, events: events)
    }

    /// Sends one keepalive now.
    public func keepaliveNow() async throws {
        _ = try await connection.request(.keepalive, session: id)
    }

    /// Stops the keepalive (waiting for one in flight to end) and sends `destroy`. Idempotent; tolerates a dead server (the
    /// session then simply times out there).
    public func destroy(timeout: Duration = .seconds(3)) async {
        guard !destroyed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Wait for the keepalive task to end: one that is already past its sleep would
        // otherwise send its keepalive after the destroy.
        let task = keepalive.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        _ = try? await connection.request(.destroy, session: id, timeout: timeout)
        await connection.removeEvents(session: id)
    }

    private func startKeepalive(every interval: Duration) {
        let connection = self.connection
        let id = self.id
        let task = Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                do {
                    _ = try await connection.request(.keepalive, session: id, cancellable: true)
                } catch is CancellationError {
                    return
                } catch JanusError.connectionClosed {
                    return
                } catch {
                    continue  // a lost keepalive is retried next period
                }
            }
        }
        keepalive.withLock { $0 = task }
    }
}
