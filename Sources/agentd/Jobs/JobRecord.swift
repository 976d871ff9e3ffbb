import Agent
import Foundation

/// The kinds of daemon jobs.
enum JobKind: String, Sendable, CaseIterable {
    case recording, bot
}

/// A job's state as the API shows it.
enum JobState: String, Sendable, CaseIterable {
    case queued, running, stopping, done, failed
}

/// One job the daemon knows about, running or ended: what ``JobRegistry`` keeps.
struct JobRecord: Sendable {
    /// Where the job is in its life; `queued` versus `running` comes from the work's progress.
    enum Lifecycle: Sendable, Equatable {
        case active, stopping, done, failed
    }

    let id: String
    let kind: JobKind
    let createdAt: Date
    let work: any JobWork
    let stop = StopRequest()
    var lifecycle = Lifecycle.active
    var error: String?
    var endedAt: Date?
    var result: [String: JSONValue] = [:]

    var isActive: Bool { lifecycle == .active || lifecycle == .stopping }

    func state(_ progress: JobProgress) -> JobState {
        switch lifecycle {
        case .active: progress.started ? .running : .queued
        case .stopping: .stopping
        case .done: .done
        case .failed: .failed
        }
    }

    /// The job as JSON: the OpenAPI document's `Job` schema.
    var json: JSONValue {
        let progress = work.progress
        var object = work.details.merging(result) { _, new in new }
        object["id"] = .string(id)
        object["kind"] = .string(kind.rawValue)
        object["state"] = .string(state(progress).rawValue)
        object["error"] = error.map { .string($0) } ?? .null
        object["created_at"] = .string(Self.timestamp(createdAt))
        object["ended_at"] = endedAt.map { .string(Self.timestamp($0)) } ?? .null
        object["participants"] = .integer(Int64(progress.participants))
        object["bytes_written"] = .integer(progress.bytesWritten)
        object["stats"] = [
            "packets": .integer(Int64(progress.received.packets)), "bytes": .integer(Int64(progress.received.bytes)),
            "lost": .integer(Int64(progress.received.lost)), "nacks": .integer(Int64(progress.received.nacks)),
            "plis": .integer(Int64(progress.received.plis)), "writer_drops": .integer(progress.writerDrops),
        ]
        return .object(object)
    }

    /// ISO-8601 UTC with milliseconds, as the manifest writes its times.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
