/// How a send stream's bad configuration reads to a person.
extension SendStreamError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidMIDExtension(let id, let length): "MID header extension id \(id) with a \(length)-byte MID is not usable"
        case .maxPacketSizeTooSmall(let size): "a maximum packet size of \(size) bytes is too small"
        case .invalidClockRate(let rate): "clock rate \(rate) is not usable"
        case .unsupportedCodec(let codec): "\(codec.encodingName) cannot be sent yet (no RTP packetizer for it)"
        }
    }
}
