/// The comment header, the second packet of an Ogg Opus stream (RFC 7845 §5.2). Lengths are LE32:
///
///     +-------------------+-----------------+---------------+-------------------+-------------+
///     | "OpusTags" (8 B)  | vendor length   | vendor string | comment count     | comments... |
///     +-------------------+-----------------+---------------+-------------------+-------------+
///
/// Each comment is a length and a UTF-8 "KEY=value" string (Vorbis comment style).
public struct OpusTags: Sendable, Equatable {
    public var vendor: String
    public var comments: [String]

    public init(parsing packet: [UInt8]) throws(OggOpusReaderError) {
        guard packet.count >= 8, packet[0..<8].elementsEqual("OpusTags".utf8) else {
            throw .badTags("no OpusTags magic")
        }
        var offset = 8
        func length() throws(OggOpusReaderError) -> Int {
            guard packet.count - offset >= 4 else { throw .badTags("length at \(offset) truncated") }
            let value = Int(UInt32(packet[offset]) | UInt32(packet[offset + 1]) << 8
                            | UInt32(packet[offset + 2]) << 16 | UInt32(packet[offset + 3]) << 24)
            offset += 4
            return value
        }
        func string() throws(OggOpusReaderError) -> String {
            let count = try length()
            guard packet.count - offset >= count else { throw .badTags("string at \(offset) runs past the end") }
            defer { offset += count }
            return String(decoding: packet[offset..<offset + count], as: UTF8.self)
        }
        vendor = try string()
        let count = try length()
        // Each comment needs at least its 4-byte length, which bounds a garbage count.
        guard count <= (packet.count - offset) / 4 else { throw .badTags("\(count) comments cannot fit") }
        var comments: [String] = []
        for _ in 0..<count { comments.append(try string()) }
        self.comments = comments
    }
}
