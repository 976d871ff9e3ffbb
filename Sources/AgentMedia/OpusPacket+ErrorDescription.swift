/// How an Opus packet whose TOC cannot be read reads to a person.
extension OpusPacket.Error: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: "the packet is empty"
        case .missingFrameCount: "the packet's frame count byte is missing"
        case .tooLong(let samples): "the packet holds \(samples) samples, more than 120 ms"
        }
    }
}
