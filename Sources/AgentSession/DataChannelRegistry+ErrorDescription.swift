/// How a data channel bookkeeping failure reads to a person.
extension DataChannelRegistry.Error: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownStream(let id): "no data channel on stream \(id)"
        case .noStreamsLeft: "no SCTP stream is left for another data channel"
        case .encoding(let error): "the DCEP message: \(error)"
        }
    }
}
