import AgentCore

/// Writes rtpdump files (the layout is on ``RTPDumpHeader`` and ``RTPDumpRecord``) into a byte
/// array the caller owns and flushes: `fileHeader` once, then `append` for each packet.
///
///     var file = RTPDumpWriter.fileHeader(RTPDumpHeader(startingAt: now))
///     try RTPDumpWriter.append(RTPDumpRecord(offsetMilliseconds: 20, isRTCP: false, bytes: packet), to: &file)
public enum RTPDumpWriter {
    /// The text line and the binary header.
    public static func fileHeader(_ header: RTPDumpHeader) -> [UInt8] {
        var bytes = Array("\(RTPDumpHeader.magic)\(header.addressText)/\(header.port)\n".utf8)
        bytes.reserveCapacity(bytes.count + RTPDumpHeader.binaryLength)
        bytes.appendBigEndian(header.startSeconds)
        bytes.appendBigEndian(header.startMicroseconds)
        bytes.appendBigEndian(header.address)
        bytes.appendBigEndian(header.port)
        bytes.appendBigEndian(UInt16(0))
        return bytes
    }

    /// Appends `record` to `bytes`, or throws and leaves `bytes` as it was. An RTCP record's
    /// `originalLength` is not written (the format marks RTCP with a plen of 0).
    public static func append(_ record: RTPDumpRecord, to bytes: inout [UInt8]) throws(RTPDumpError) {
        let count = record.bytes.count
        guard count <= RTPDumpRecord.maximumPacketLength else { throw .packetTooLarge(count) }
        let plen: UInt16
        if record.isRTCP {
            plen = 0
        } else {
            guard record.originalLength <= Int(UInt16.max) else { throw .packetTooLarge(record.originalLength) }
            guard record.originalLength >= count else {
                throw .badRecord(offset: bytes.count, "original length \(record.originalLength) is less than the \(count) bytes stored")
            }
            guard record.originalLength > 0 else { throw .badRecord(offset: bytes.count, "an empty RTP packet would read back as RTCP") }
            plen = UInt16(record.originalLength)
        }
        let needed = RTPDumpRecord.headerLength + count
        // Reserving exactly what each record needs would reallocate on every append; doubling
        // keeps a long capture's appends amortized constant.
        if bytes.capacity - bytes.count < needed {
            bytes.reserveCapacity(max(bytes.count + needed, bytes.capacity * 2))
        }
        bytes.appendBigEndian(UInt16(needed))
        bytes.appendBigEndian(plen)
        bytes.appendBigEndian(record.offsetMilliseconds)
        bytes.append(contentsOf: record.bytes)
    }
}
