import Agent

/// What /metrics shows about jobs: gauges for now, and counters over the daemon's life (the
/// ended jobs' final figures plus the running jobs' current ones).
struct JobMetrics: Sendable, Equatable {
    var byState: [JobState: Int] = [:]
    var created: [JobKind: Int] = [:]
    /// Participants in the rooms of running jobs now.
    var participants = 0
    var received = ReceiveCounters()
    var bytesWritten: Int64 = 0
    var writerDrops: Int64 = 0
    var events = EventBufferCounts()

    mutating func noteEnded(_ progress: JobProgress) {
        received = received + progress.received
        bytesWritten += progress.bytesWritten
        writerDrops += progress.writerDrops
        events = events + progress.events
    }

    mutating func add(active progress: JobProgress) {
        noteEnded(progress)
        participants += progress.participants
    }
}
