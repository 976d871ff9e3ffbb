import Agent

extension FuzzTarget {
    /// rtpdump captures (rtptools' `rtpdump -F dump`): the header, then records until the end or
    /// the first error. Every record read must write back to the bytes it was read from, and the
    /// header to its binary fields (the padding aside: it is not kept).
    public static let rtpdump = FuzzTarget(name: "rtpdump", summary: "RTPDumpReader header and records, RTPDumpWriter round trip",
                                           maxInputLength: 8192) { bytes in
        let input = Array(bytes)
        guard var reader = try? RTPDumpReader(input) else { return }
        let recordsStart = reader.offset
        let binary = RTPDumpWriter.fileHeader(reader.header).suffix(RTPDumpHeader.binaryLength).dropLast(2)
        FuzzCheck.expect(binary.elementsEqual(input[(recordsStart - RTPDumpHeader.binaryLength)..<(recordsStart - 2)]),
                         "\(reader.header) writes back differently")

        var written: [UInt8] = []
        var count = 0
        while let record = try? reader.next() {
            count += 1
            FuzzCheck.expect(count <= input.count / RTPDumpRecord.headerLength, "\(count) records from \(input.count) bytes")
            do {
                try RTPDumpWriter.append(record, to: &written)
            } catch {
                FuzzCheck.expect(false, "record \(count) was read but cannot be written: \(error)")
            }
        }
        FuzzCheck.expect(written.elementsEqual(input[recordsStart..<reader.offset]), "\(count) records write back differently")
    }
}
