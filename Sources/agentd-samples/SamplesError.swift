/// Why `agentd-samples` could not write a sample. Printed as one line on stderr.
enum SamplesError: Error, CustomStringConvertible {
    /// Bad command line (exit 2).
    case usage(String)
    /// An encoder or writer failed (exit 1).
    case failed(sample: String, reason: String)

    var description: String {
        switch self {
        case .usage(let message): message
        case .failed(let sample, let reason): "cannot write \(sample): \(reason)"
        }
    }
}
