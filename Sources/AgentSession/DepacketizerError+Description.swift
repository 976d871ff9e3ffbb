/// How a payload that cannot be depacketized reads to a person.
extension DepacketizerError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .emptyPayload: "the payload is empty"
        case .vp8(let error): "VP8: \(error)"
        case .vp9(let error): "VP9: \(error)"
        case .h264(let error): "H.264: \(error)"
        case .rangeOutsidePayload: "a range outside the payload"
        }
    }
}
