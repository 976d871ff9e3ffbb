/// How a publisher's failure reads to a person.
extension JanusPublisherError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .codecRefused(let refused, let allowed):
            let ours = refused.map { "\($0.codec.rawValue.lowercased()) \($0.kind.rawValue)" }.joined(separator: " and ")
            return "the room does not accept \(ours)" + (allowed.map { "; it allows \($0)" } ?? "")
        case .connectionFailed(let reason): return "the media connection failed: \(reason)"
        case .dataChannelUnavailable: return "no open data channel"
        case .notStarted: return "the publisher has not started"
        }
    }
}
