/// Why a job queue call failed.
public enum JobQueueError: Error, Equatable, CustomStringConvertible {
    case redis(RedisError)
    /// A job hash or a script's answer was not what the queue writes.
    case malformedJob(String)

    public var description: String {
        switch self {
        case .redis(let error): error.description
        case .malformedJob(let what): "a job in Redis is malformed: \(what)"
        }
    }
}
