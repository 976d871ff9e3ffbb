import Foundation

/// The one way an error becomes text a person reads (a CLI line, a job's `error`, a log line):
/// its description when it has one (every error type of ours does), never a Swift enum dump such
/// as `nothingMatched(allowList: …)`.
enum ErrorText {
    static func describe(_ error: any Error) -> String {
        if error is CancellationError { return "cancelled before it finished" }
        if let decoding = error as? DecodingError { return jsonReason(decoding) }
        // Foundation's errors describe themselves as "Error Domain=… UserInfo=…": take their
        // localized text instead.
        if type(of: error) is NSError.Type || error is CocoaError { return (error as NSError).localizedDescription }
        if let described = error as? CustomStringConvertible { return described.description }
        if let localized = error as? LocalizedError, let text = localized.errorDescription { return text }
        return (error as NSError).localizedDescription
    }

    /// Why JSONDecoder refused a document, in the parser's own words where it gave some.
    static func jsonReason(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return describe(error) }
        switch decoding {
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError as NSError?,
               let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
                return detail
            }
            return context.debugDescription
        case .keyNotFound(let key, _): return "no key \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return context.debugDescription
        @unknown default: return "not valid JSON"
        }
    }
}
