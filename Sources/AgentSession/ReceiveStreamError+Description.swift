/// How a packet a receive stream cannot take reads to a person.
extension ReceiveStreamError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .malformed(let error): "\(error)"
        case .unexpectedSSRC(let ssrc): "a packet of SSRC \(ssrc), not this stream's"
        case .sequenceJump(let distance): "a sequence number jump of \(distance)"
        case .malformedPayload(let error): "bad payload: \(error)"
        }
    }
}
