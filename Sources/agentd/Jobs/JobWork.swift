import Agent

/// What a daemon job does: a recording, a bot. ``JobRegistry`` runs it on its own task and reads
/// its ``progress`` for `GET /v1/jobs/{id}` and /metrics.
protocol JobWork: Sendable {
    /// Runs until the work is done, or until `stop` is requested and the work has wound down
    /// cleanly (files final).
    /// - Returns: fields added to the job's JSON once done (e.g. `stopped_by`).
    /// - Throws: any error; the job ends `failed` with the error's description as its reason.
    func run(until stop: StopRequest) async throws -> [String: JSONValue]

    /// Live figures; read from any thread at any time.
    var progress: JobProgress { get }

    /// Fields describing the job from the start (room, server, out...); never a secret.
    var details: [String: JSONValue] { get }
}

extension JobWork {
    var details: [String: JSONValue] { [:] }
}

/// A job's live figures.
struct JobProgress: Sendable, Equatable {
    /// True once the work really runs (a recording is in its room); before that the job is `queued`.
    var started = false
    /// Participants in the room now.
    var participants = 0
    /// Bytes in the job's files.
    var bytesWritten: Int64 = 0
    var received = ReceiveCounters()
    /// Events the bounded writer queue dropped.
    var writerDrops: Int64 = 0
    /// What the job's event streams (channel, bot) coalesced or dropped because their reader was behind.
    var events = EventBufferCounts()
}

/// A job that ended for a reason worth reading (the room is missing, Janus is down, the disk is full).
struct JobFailure: Error, CustomStringConvertible {
    let description: String
}
