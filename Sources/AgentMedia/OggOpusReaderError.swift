/// Why an Ogg Opus file could not be read. A bad file never traps; each way it can be wrong has a case.
public enum OggOpusReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No Ogg page was found (garbage, an empty file, or not Ogg at all) within the first
    /// ``OggOpusReader/firstPageSearchLimit`` bytes.
    case notOgg(path: String)
    /// The file is Ogg, but no logical stream begins with an OpusHead packet.
    case notOpus(path: String)
    /// The OpusHead packet is malformed (RFC 7845 §5.1).
    case badHead(String)
    /// The second header packet is missing or is not a well-formed OpusTags (RFC 7845 §5.2).
    case badTags(String)
    /// The file ended before the header packets were complete.
    case truncatedHeaders(path: String)
    /// The header packets did not end within `limit` bytes of the start.
    case headersTooLarge(path: String, limit: Int)
    /// An audio packet runs on over pages for more than ``OggOpusReader/packetSizeLimit`` bytes.
    case packetTooLarge(index: Int, bytes: Int)
    /// An audio packet's TOC byte is invalid, so its duration is unknown.
    case badPacket(index: Int, reason: OpusPacket.Error)
    /// A granule position gives a time that does not fit 64-bit nanoseconds.
    case granuleOutOfRange(Int64)
    /// The file system refused an operation on `path`.
    case io(operation: String, path: String, message: String)

    public var description: String {
        switch self {
        case .notOgg(let path): "\(path) is not an Ogg file"
        case .notOpus(let path): "\(path) has no Opus stream"
        case .badHead(let reason): "bad OpusHead: \(reason)"
        case .badTags(let reason): "bad OpusTags: \(reason)"
        case .truncatedHeaders(let path): "\(path) ends inside the Opus headers"
        case .headersTooLarge(let path, let limit): "the Opus headers of \(path) do not end within \(limit) bytes"
        case .packetTooLarge(let index, let bytes): "Opus packet \(index) runs on over pages for \(bytes) bytes, more than a packet can have"
        case .badPacket(let index, let reason): "Opus packet \(index) is invalid: \(reason)"
        case .granuleOutOfRange(let granule): "granule position \(granule) is out of range"
        case .io(let operation, let path, let message): "\(operation) \(path) failed: \(message)"
        }
    }
}
