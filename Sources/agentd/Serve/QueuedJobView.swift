import Agent
import Foundation
import JobQueue

/// A queued job as the API shows it: the same `Job` shape as the daemon's own jobs (the
/// holder's last report of it, or what the API node stored at submit), with the queue's own
/// fields on top: `worker`, `attempts`, `reclaims`, `dead_lettered`.
enum QueuedJobView {
    static func json(_ job: QueuedJob) -> JSONValue {
        var object = fields(job.progress) ?? fields(job.details) ?? [:]
        for (key, value) in fields(job.result) ?? [:] { object[key] = value }
        object["id"] = .string(job.id)
        object["kind"] = .string(job.kind)
        object["state"] = .string(state(job).rawValue)
        object["error"] = job.error.map { .string($0) } ?? .null
        object["created_at"] = .string(timestamp(job.createdMs))
        object["ended_at"] = job.isActive ? .null : job.endedMs.map { .string(timestamp($0)) } ?? .null
        object["worker"] = job.worker.map { .string($0) } ?? .null
        object["attempts"] = .integer(Int64(job.attempts))
        object["reclaims"] = .integer(Int64(job.reclaims))
        object["dead_lettered"] = .bool(job.deadLettered)
        for (key, zero) in ["participants": JSONValue.integer(0), "bytes_written": .integer(0)] where object[key] == nil {
            object[key] = zero
        }
        if object["stats"] == nil {
            object["stats"] = .object(["packets", "bytes", "lost", "nacks", "plis", "writer_drops"].reduce(into: [:]) { $0[$1] = .integer(0) })
        }
        return .object(object)
    }

    /// The API's states: a job a worker took but that is not in its room yet is still `queued`.
    static func state(_ job: QueuedJob) -> JobState {
        switch job.state {
        case .queued, .claimed: .queued
        case .running: .running
        case .stopping: .stopping
        case .done: .done
        case .failed: .failed
        }
    }

    private static func fields(_ text: String?) -> [String: JSONValue]? {
        guard let text, let value = try? JSONValue(parsing: text, maxDepth: 16) else { return nil }
        return value.objectValue
    }

    private static func timestamp(_ milliseconds: Int64) -> String {
        JobRecord.timestamp(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
