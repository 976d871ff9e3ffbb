import AgentCore

/// RTCP Source Description, PT 202 (RFC 3550 §6.5), with the CNAME item every compound packet
/// must carry (§6.1) so receivers can tie a participant's streams together.
///
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |V=2|P|    SC   |  PT=SDES=202  |             length            |
///     +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
///     |                          SSRC/CSRC_1                          |  chunk
///     |    CNAME=1    |     length    | user and domain name        ...
///     |    END=0      |  (zero padding to a 32-bit boundary)          |
///     +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
public struct SourceDescription: Equatable, Sendable {
    public struct Chunk: Equatable, Sendable {
        public var source: UInt32
        public var cname: String?
        public init(source: UInt32, cname: String?) {
            self.source = source
            self.cname = cname
        }
    }

    public var chunks: [Chunk]

    public init(chunks: [Chunk]) { self.chunks = chunks }

    static let cnameItem: UInt8 = 1

    static func parse(_ packet: UnsafeRawBufferPointer, header: RTCPHeader) throws(RTCPError) -> SourceDescription {
        // Nil when a chunk has no END.
        let chunks = try RTCPHeader.readBody(of: packet) { reader throws(ByteRangeError) -> [Chunk]? in
            var chunks: [Chunk] = []
            for _ in 0..<Int(header.count) {
                guard let chunk = try readChunk(&reader) else { return nil }
                chunks.append(chunk)
            }
            return chunks
        }
        guard let chunks else { throw .malformed(packetType: RTCPHeader.sourceDescription, reason: "chunk without END") }
        return SourceDescription(chunks: chunks)
    }

    /// One chunk: its source, then items until END (a zero type byte), then the padding to the
    /// next 32-bit boundary. Nil when the packet ends before END.
    private static func readChunk(_ reader: inout ByteReader) throws(ByteRangeError) -> Chunk? {
        var chunk = Chunk(source: try reader.readBigEndian(), cname: nil)
        while !reader.isAtEnd {
            let type = try reader.readUInt8()
            if type == 0 {
                // The packet's length is a multiple of 4, so the boundary lies within it.
                try reader.skip((4 - reader.offset % 4) % 4)
                return chunk
            }
            let length = Int(try reader.readUInt8())
            let value = try reader.readBytes(length)
            if type == cnameItem { chunk.cname = String(decoding: value, as: UTF8.self) }
        }
        return nil
    }

    public func write(into output: inout [UInt8]) {
        var body: [UInt8] = []
        for chunk in chunks.prefix(31) {
            body.appendBigEndian(chunk.source)
            if let cname = chunk.cname {
                let text = Array(cname.utf8.prefix(255))
                body.append(Self.cnameItem)
                body.append(UInt8(text.count))
                body += text
            }
            // END, then zero padding to a 32-bit boundary (at least one zero byte).
            body.append(0)
            while body.count % 4 != 0 { body.append(0) }
        }
        RTCPHeader(count: UInt8(min(chunks.count, 31)), packetType: RTCPHeader.sourceDescription, byteLength: 4 + body.count)
            .write(into: &output)
        output += body
    }
}
