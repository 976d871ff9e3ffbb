/// Why `--formats` could not be parsed. The CLI maps it to exit code 2 (usage).
public enum RecordingFormatsError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownFormat(String)
    case empty

    public var description: String {
        let known = RecordingFormats.Format.allCases.map(\.rawValue).joined(separator: ", ")
        switch self {
        case .unknownFormat(let name): return "unknown format '\(name)' (known: \(known))"
        case .empty: return "no formats given (known: \(known))"
        }
    }
}
