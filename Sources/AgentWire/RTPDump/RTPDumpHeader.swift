/// The start of an rtpdump file (rtptools' `rtpdump -F dump`, read by `rtpplay` and Wireshark):
/// when the capture began and where its packets came from.
///
///     #!rtpplay1.0 ADDRESS/PORT\n           (text: dotted IPv4 address, decimal port)
///      0                   1                   2                   3
///      0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                   start time, seconds (Unix)                  |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                   start time, microseconds                    |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                     source IPv4 address                       |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |          source port          |         padding (0)           |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///
/// The binary fields are big-endian. The address and port appear twice, as text and in binary;
/// the binary ones are what a reader keeps. Records (``RTPDumpRecord``) follow.
public struct RTPDumpHeader: Equatable, Sendable {
    public var startSeconds: UInt32
    public var startMicroseconds: UInt32
    /// The source's IPv4 address as a number (127.0.0.1 is 0x7F00_0001).
    public var address: UInt32
    public var port: UInt16

    /// The file starts with this, then the address and port as text.
    public static let magic = "#!rtpplay1.0 "
    /// The binary part's length.
    public static let binaryLength = 16
    /// 127.0.0.1: what a capture names when its packets have no one network source.
    public static let loopback: UInt32 = 0x7F00_0001
    /// RFC 3551's default RTP port.
    public static let defaultPort: UInt16 = 5004

    public init(startSeconds: UInt32 = 0, startMicroseconds: UInt32 = 0, address: UInt32 = loopback, port: UInt16 = defaultPort) {
        self.startSeconds = startSeconds
        self.startMicroseconds = startMicroseconds
        self.address = address
        self.port = port
    }

    /// A header for a capture that starts at `wallNanoseconds` (Unix time), clamped to what the
    /// fields hold (no time before 1970, none after 2106).
    public init(startingAt wallNanoseconds: Int64, address: UInt32 = loopback, port: UInt16 = defaultPort) {
        let nanoseconds = max(wallNanoseconds, 0)
        self.init(startSeconds: UInt32(clamping: nanoseconds / 1_000_000_000),
                  startMicroseconds: UInt32(nanoseconds % 1_000_000_000 / 1000), address: address, port: port)
    }

    /// A record's offset for a packet seen at `wallNanoseconds`: milliseconds since the start,
    /// 0 for a packet before it, clamped to the field (about 49 days).
    public func offsetMilliseconds(atWallNanoseconds wallNanoseconds: Int64) -> UInt32 {
        // At most 2^32 s plus 10^6 µs in nanoseconds: far within Int64.
        let start = Int64(startSeconds) * 1_000_000_000 + Int64(startMicroseconds) * 1000
        guard wallNanoseconds > start else { return 0 }
        return UInt32(clamping: (wallNanoseconds - start) / 1_000_000)
    }

    /// The address in dotted form, as the text line gives it.
    public var addressText: String {
        "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF)"
    }
}
