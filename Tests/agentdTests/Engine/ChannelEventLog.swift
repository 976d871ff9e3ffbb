import Agent
import Foundation
import Synchronization
import TestSupport

/// Everything a channel reported, with arrival times, drained in the background so tests can
/// poll it with a deadline.
final class ChannelEventLog: Sendable {
    struct Entry: Sendable {
        let event: ChannelEvent
        let at: ContinuousClock.Instant
    }

    private let entries = Mutex<[Entry]>([])
    private let drain = Mutex<Task<Void, Never>?>(nil)

    init(_ events: AsyncStream<ChannelEvent>) {
        let task = Task { [weak self] in
            for await event in events { self?.append(event) }
        }
        drain.withLock { $0 = task }
    }

    deinit { drain.withLock { $0?.cancel() } }

    private func append(_ event: ChannelEvent) {
        entries.withLock { $0.append(Entry(event: event, at: .now)) }
    }

    var all: [Entry] { entries.withLock { $0 } }

    func index(where predicate: (ChannelEvent) -> Bool) -> Int? { entries.withLock { $0.firstIndex { predicate($0.event) } } }

    func contains(where predicate: (ChannelEvent) -> Bool) -> Bool { index(where: predicate) != nil }

    var reports: [(report: ChannelStatistics, at: ContinuousClock.Instant)] {
        all.compactMap { if case .statsReport(let report) = $0.event { (report, $0.at) } else { nil } }
    }

    var joined: [User] { all.compactMap { if case .userJoined(let user) = $0.event { user } else { nil } } }

    func isJoined(_ id: String) -> (ChannelEvent) -> Bool { { if case .userJoined(let user) = $0 { user.id == id } else { false } } }
    func isLeft(_ id: String) -> (ChannelEvent) -> Bool { { if case .userLeft(let user) = $0 { user.id == id } else { false } } }

    func isSubscribed(_ id: String, _ kind: MediaKind) -> (ChannelEvent) -> Bool {
        { if case .trackSubscribed(let user, let track) = $0 { user.id == id && track.kind == kind } else { false } }
    }

    func isUnsubscribed(_ id: String, _ kind: MediaKind) -> (ChannelEvent) -> Bool {
        { if case .trackUnsubscribed(let user, let track) = $0 { user.id == id && track.kind == kind } else { false } }
    }
}

/// aiortc publishers (peers/publisher.py) for the engine's lab tests.
enum LabPublisher {
    /// Starts one and returns it with its participant id, once its media flows.
    static func start(
        _ lab: LabEnvironment, room: String, display: String, tone: Int = 440, extra: [String] = []
    ) async throws -> (process: ChildProcess, id: String) {
        let arguments = [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", display,
                         "--tone", String(tone), "--create", "--duration", "60", "--data-interval-ms", "0"] + extra
        let process = try ChildProcess(Repository.python, arguments, name: "aiortc \(display)")
        // A generous deadline: when the full suite starts, every unit test competes for the two
        // cores and an aiortc start has been seen to take over 30 s.
        let ready = try await process.waitForLine(prefix: "READY", within: .seconds(90))
        let json = try JSONValue(parsing: String(ready.dropFirst("READY".count)))
        guard let id = json["id"]?.idString else { throw ChildProcess.Failure(description: "READY without id: \(ready)") }
        return (process, id)
    }
}
