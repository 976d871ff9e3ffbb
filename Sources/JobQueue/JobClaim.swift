/// A worker's hold on a job: what the claim script returned. The ``fence`` goes with every
/// later write; once another claim raised it, this holder's writes are refused.
public struct JobClaim: Sendable, Equatable {
    public let id: String
    public let entry: String
    public let fence: Int64
    /// 1 for the first run; more when it failed, or its holder's lease lapsed, before.
    public let attempt: Int
    public let kind: String
    public let body: String
    /// The worker that held it before, if any.
    public let previousWorker: String?
    /// True when it came from XAUTOCLAIM: its last holder stopped renewing.
    public let reclaimed: Bool

    public init(id: String, entry: String, fence: Int64, attempt: Int, kind: String, body: String, previousWorker: String?, reclaimed: Bool) {
        self.id = id
        self.entry = entry
        self.fence = fence
        self.attempt = attempt
        self.kind = kind
        self.body = body
        self.previousWorker = previousWorker
        self.reclaimed = reclaimed
    }
}

/// What came of a claim.
public enum ClaimOutcome: Sendable, Equatable {
    case claimed(JobClaim)
    /// Nothing to run: the job ended, was stopped, or its entry is stale or still leased.
    case skipped(String)
    /// Its attempts were used up: it went to the dead-letter stream with this error.
    case deadLettered(id: String, error: String)
}

/// What a heartbeat learned.
public enum RenewOutcome: Sendable, Equatable {
    /// Still ours; `stopRequested` once DELETE asked.
    case held(stopRequested: Bool)
    /// Another claim took it: stop writing it at once.
    case fenced
}

/// How a holder ends its hold (``JobQueueScripts/finish``).
public enum FinishOutcome: String, Sendable, Equatable, CaseIterable {
    case done, failed, retry, release
}

/// A job that used up its attempts, as the dead-letter stream holds it.
public struct DeadLetter: Sendable, Equatable {
    public let entry: String
    public let id: String
    public let error: String
    public let attempts: Int
}
