/// How an HTTP client failure reads to a person (it ends up in "cannot reach" lines).
extension HTTPClientError: CustomStringConvertible {
    package var description: String {
        switch self {
        case .invalidURL(let url): "'\(url)' is not an http:// or https:// URL"
        case .connectionRefused(let reason): "connection refused (\(reason))"
        case .unreachable(let reason): "unreachable (\(reason))"
        case .timedOut(let timeout): "no answer within \(timeout)"
        case .responseTooLarge(let limit): "the answer is larger than \(limit) bytes"
        case .cancelled: "the request was cancelled"
        case .closed: "the HTTP client was closed"
        case .failed(let reason): reason
        }
    }
}
