/// A job as its Redis hash holds it. Built from what Redis returned, which a bad actor with
/// access to Redis could have written: fields are bounded and numbers checked, and a hash that
/// is not a job is ``JobQueueError/malformedJob(_:)``.
public struct QueuedJob: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        /// In the stream, waiting for a worker with room.
        case queued
        /// A worker took it and is starting it.
        case claimed
        case running
        /// DELETE asked; its worker has not ended it yet.
        case stopping
        case done, failed
    }

    public let id: String
    public let kind: String
    /// The request body the job was submitted with (JSON text, secrets included: never shown).
    public let body: String
    /// What the API shows of the request (JSON object text, no secrets).
    public let details: String
    public let state: State
    /// Deliveries that ran (claims).
    public let attempts: Int
    public let fence: Int64
    public let worker: String?
    public let error: String?
    /// The ended job's result fields (JSON object text).
    public let result: String?
    /// The holder's last report of the job (JSON object text).
    public let progress: String?
    public let createdMs: Int64
    public let startedMs: Int64?
    public let endedMs: Int64?
    public let reclaims: Int
    public let deadLettered: Bool
    public let stopRequested: Bool

    /// The largest field kept: a body, details or progress over it means the hash is not ours.
    public static let maximumFieldBytes = 1 << 20

    public init(fields: [String: String]) throws(JobQueueError) {
        for (name, value) in fields where value.utf8.count > Self.maximumFieldBytes {
            throw .malformedJob("field \(name.prefix(32)) holds \(value.utf8.count) bytes")
        }
        guard let id = fields["id"], JobID.isValid(id) else { throw .malformedJob("no valid id") }
        guard let kind = fields["kind"], !kind.isEmpty, kind.utf8.count <= 32 else { throw .malformedJob("job \(id): no kind") }
        guard let state = fields["state"].flatMap(State.init(rawValue:)) else { throw .malformedJob("job \(id): no valid state") }
        guard let created = fields["created_ms"].flatMap({ Int64($0) }) else { throw .malformedJob("job \(id): no created_ms") }
        self.id = id
        self.kind = kind
        self.state = state
        createdMs = created
        body = fields["body"] ?? "{}"
        details = fields["details"] ?? "{}"
        attempts = fields["attempts"].flatMap { Int($0) } ?? 0
        fence = fields["fence"].flatMap { Int64($0) } ?? 0
        worker = fields["worker"].flatMap { $0.isEmpty ? nil : $0 }
        error = fields["error"].flatMap { $0.isEmpty ? nil : $0 }
        result = fields["result"].flatMap { $0.isEmpty ? nil : $0 }
        progress = fields["progress"].flatMap { $0.isEmpty ? nil : $0 }
        startedMs = fields["started_ms"].flatMap { Int64($0) }
        endedMs = fields["ended_ms"].flatMap { Int64($0) }
        reclaims = fields["reclaims"].flatMap { Int($0) } ?? 0
        deadLettered = fields["dead"] == "1"
        stopRequested = fields["stop"] == "1"
    }

    public var isActive: Bool { state != .done && state != .failed }
}
