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

    static func parse(_ bytes: UnsafeRawBufferPointer, header: RTCPHeader, at offset: Int) throws(RTCPError) -> SourceDescription {
        var chunks: [Chunk] = []
        var position = offset + RTCPHeader.length
        let end = offset + header.byteLength
        for _ in 0..<Int(header.count) {
            guard position + 4 <= end else { throw .truncated(needed: position + 4 - offset, got: header.byteLength) }
            var chunk = Chunk(source: bytes.loadBigEndian(UInt32.self, at: position), cname: nil)
            position += 4
            // Items until END (a zero type byte); then skip padding to the next 32-bit boundary.
            while true {
                guard position < end else { throw .malformed(packetType: RTCPHeader.sourceDescription, reason: "chunk without END") }
                let type = bytes[position]
                if type == 0 {
                    position = offset + ((position - offset) / 4 + 1) * 4
                    break
                }
                guard position + 2 <= end else { throw .truncated(needed: position + 2 - offset, got: header.byteLength) }
                let length = Int(bytes[position + 1])
                guard position + 2 + length <= end else { throw .truncated(needed: position + 2 + length - offset, got: header.byteLength) }
                if type == cnameItem {
                    chunk.cname = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(position + 2)..<(position + 2 + length)]), as: UTF8.self)
                }
                position += 2 + length
            }
            chunks.append(chunk)
        }
        return SourceDescription(chunks: chunks)
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
