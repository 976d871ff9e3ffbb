/// How a WHIP failure reads to a person.
extension WHIPError: CustomStringConvertible {
    var description: String {
        switch self {
        case .http(let error): error.description
        case .status(let code, let body): "HTTP \(code)\(body.isEmpty ? "" : ": \(body)")"
        case .badLocation(let what): "no usable Location in the answer (\(what))"
        case .badAnswer(let what): "the answer is not a usable SDP (\(what))"
        case .tracksRefused(let tracks): "the endpoint refused \(tracks.map { "\($0.offeredCodecNames) \($0.kind.rawValue)" }.joined(separator: " and "))"
        case .connectionFailed(let reason): reason
        case .alreadyPublished: "this WHIP session published already"
        }
    }
}
