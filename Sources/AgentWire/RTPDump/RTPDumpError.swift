/// Why bytes are not an rtpdump file (rtptools' `rtpdump -F dump`, what `rtpplay` reads), or why
/// a record cannot be written into one. Thrown, never trapped on: a capture is outside input.
public enum RTPDumpError: Error, Equatable, Sendable {
    /// The first line is not `#!rtpplay1.0 ADDRESS/PORT` ended within 128 bytes.
    case notRTPDump(String)
    /// The file ends inside the binary header or inside the record that starts at `offset`.
    case truncated(offset: Int)
    /// The record at `offset` contradicts itself (a length shorter than its own header, a packet
    /// longer than the original it claims to be cut from).
    case badRecord(offset: Int, String)
    /// A packet of this many bytes does not fit a record (at most 65535 - 8).
    case packetTooLarge(Int)
    /// The file holds `bytes` bytes, over the `limit` its reader was given.
    case fileTooLarge(bytes: Int, limit: Int)
    /// The file could not be opened or read (the system's reason).
    case unreadable(String)
}
