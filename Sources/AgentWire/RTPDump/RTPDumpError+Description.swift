/// How a malformed rtpdump file, or a record that does not fit one, reads to a person.
extension RTPDumpError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notRTPDump(let reason): "not an rtpdump file: \(reason)"
        case .truncated(let offset): "rtpdump file cut short in the record or header at byte \(offset)"
        case .badRecord(let offset, let reason): "bad rtpdump record at byte \(offset): \(reason)"
        case .packetTooLarge(let count): "a packet of \(count) bytes does not fit an rtpdump record (at most 65527)"
        case .fileTooLarge(let bytes, let limit): "rtpdump file of \(bytes) bytes, over the limit of \(limit)"
        case .unreadable(let reason): "rtpdump file unreadable: \(reason)"
        }
    }
}
