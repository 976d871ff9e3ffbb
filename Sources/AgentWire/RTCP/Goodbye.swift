import AgentCore

/// RTCP BYE, PT 203 (RFC 3550 §6.6): the listed sources are leaving.
///
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |V=2|P|    SC   |   PT=BYE=203  |             length            |
///     |                           SSRC/CSRC                           |  (SC times)
///     |     length    |               reason for leaving            ...  (optional)
public struct Goodbye: Equatable, Sendable {
    public var sources: [UInt32]

    public init(sources: [UInt32]) { self.sources = sources }

    static func parse(_ packet: UnsafeRawBufferPointer, header: RTCPHeader) throws(RTCPError) -> Goodbye {
        let needed = 4 + 4 * Int(header.count)
        guard header.byteLength >= needed else { throw .truncated(needed: needed, got: header.byteLength) }
        return try RTCPHeader.readBody(of: packet) { reader throws(ByteRangeError) in
            var sources: [UInt32] = []
            sources.reserveCapacity(Int(header.count))
            for _ in 0..<Int(header.count) { sources.append(try reader.readBigEndian()) }
            return Goodbye(sources: sources)
        }
    }

    public func write(into output: inout [UInt8]) {
        let count = min(sources.count, 31)
        RTCPHeader(count: UInt8(count), packetType: RTCPHeader.goodbye, byteLength: 4 + 4 * count).write(into: &output)
        for source in sources.prefix(count) { output.appendBigEndian(source) }
    }
}
