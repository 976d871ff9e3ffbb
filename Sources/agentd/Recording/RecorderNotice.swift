import Agent
import AgentdCore
import Foundation
import Recorder

/// `--notice data`: tells the room that it is being recorded, from the recorder's own
/// publisher (``RecordingNotice``). While recording, `{"type":"recorder","active":true,...}`
/// goes out at once and every ``repeatInterval`` (Janus relays a message only to those
/// subscribed when it is sent, so someone who joins later hears the next one); at the end
/// ``finish(stoppedBy:)`` sends `"active":false` with what stopped it, before the recorder leaves.
///
///     {"type":"recorder","active":true,"room":"demo","recorder":"agentd-recorder","started_at":"2026-12-04T18:00:00.000Z","seq":1}
///     {"type":"recorder","active":false,"room":"demo","recorder":"agentd-recorder","started_at":"…","seq":9,"stopped_by":"idle"}
///
/// A send that fails (the data channel still opening, a reconnect) is retried at the next
/// tick; the final one is tried for up to ``finalDeadline``.
final class RecorderNotice: Sendable {
    static let repeatInterval: Duration = .seconds(2)
    /// How often a send is tried again while the data channel is not open.
    static let retryInterval: Duration = .milliseconds(100)
    static let finalDeadline: Duration = .seconds(3)

    private let channel: Channel
    private let fields: [String: JSONValue]
    private let sequence = Shared(0)
    private let ticker = Shared<Task<Void, Never>?>(nil)

    init(channel: Channel, request: RecordingRequest) {
        self.channel = channel
        fields = [
            "type": "recorder", "room": .string(request.room), "recorder": .string(request.display),
            "started_at": .string(RecordingManifest.formatDate(request.startedAt)),
        ]
    }

    /// Starts announcing `active: true`.
    func start() {
        let task = Task { [self] in
            while !Task.isCancelled {
                var sent = false
                while !sent, !Task.isCancelled {
                    sent = await send(active: true)
                    if !sent { try? await Task.sleep(for: Self.retryInterval) }
                }
                try? await Task.sleep(for: Self.repeatInterval)
            }
        }
        ticker.withLock { $0 = task }
    }

    /// Stops the repeats and sends `active: false`; returns whether it went out in time.
    @discardableResult
    func finish(stoppedBy: String) async -> Bool {
        let task = ticker.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        let deadline = ContinuousClock.now + Self.finalDeadline
        while ContinuousClock.now < deadline {
            if await send(active: false, extra: ["stopped_by": .string(stoppedBy)]) { return true }
            try? await Task.sleep(for: Self.retryInterval)
        }
        return false
    }

    private func send(active: Bool, extra: [String: JSONValue] = [:]) async -> Bool {
        var object = fields.merging(extra) { $1 }
        object["active"] = .bool(active)
        object["seq"] = .integer(Int64(sequence.withLock { $0 += 1; return $0 }))
        do {
            try await channel.send(text: JSONValue.object(object).serialized())
            return true
        } catch {
            return false
        }
    }
}
