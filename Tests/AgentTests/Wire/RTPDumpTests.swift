import Foundation
import Testing

@testable import AgentCore
@testable import AgentWire

@Suite struct RTPDumpTests {
    /// An rtpdump file written byte by byte from the format, not by our writer: an RTP packet,
    /// an RTCP PLI and an RTP packet the capture cut to its first 8 bytes.
    static let handBuilt: [UInt8] =
        Array("#!rtpplay1.0 192.0.2.1/5004\n".utf8) + [
            0x65, 0x5F, 0x1A, 0x00,  // start seconds 0x655F1A00
            0x00, 0x07, 0xA1, 0x20,  // start microseconds 500000
            0xC0, 0x00, 0x02, 0x01,  // source 192.0.2.1
            0x13, 0x8C, 0x00, 0x00,  // port 5004, padding
            0x00, 0x14, 0x00, 0x0C,  // record length 20, plen 12
            0x00, 0x00, 0x00, 0x00,  // offset 0 ms
            0x80, 0x6F, 0x00, 0x01, 0x00, 0x00, 0x03, 0xC0, 0xDE, 0xAD, 0xBE, 0xEF,  // RTP PT 111, seq 1
            0x00, 0x14, 0x00, 0x00,  // record length 20, plen 0: RTCP
            0x00, 0x00, 0x00, 0x28,  // offset 40 ms
            0x81, 0xCE, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0xDE, 0xAD, 0xBE, 0xEF,  // PLI
            0x00, 0x10, 0x04, 0xB0,  // record length 16, plen 1200: cut
            0x00, 0x01, 0x00, 0x00,  // offset 65536 ms
            0x80, 0x60, 0x00, 0x02, 0x00, 0x00, 0x0B, 0xB8,  // the first 8 bytes of an RTP packet
        ]
    static let handBuiltLineLength = 28

    static let handBuiltRecords = [
        RTPDumpRecord(offsetMilliseconds: 0, isRTCP: false, bytes: [0x80, 0x6F, 0x00, 0x01, 0x00, 0x00, 0x03, 0xC0, 0xDE, 0xAD, 0xBE, 0xEF]),
        RTPDumpRecord(offsetMilliseconds: 40, isRTCP: true, bytes: [0x81, 0xCE, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0xDE, 0xAD, 0xBE, 0xEF]),
        RTPDumpRecord(offsetMilliseconds: 65536, isRTCP: false, bytes: [0x80, 0x60, 0x00, 0x02, 0x00, 0x00, 0x0B, 0xB8], originalLength: 1200),
    ]

    /// Where each record of ``handBuilt`` starts, and where the file ends.
    static let handBuiltBoundaries = [44, 64, 84, 100]

    static func readAll(_ bytes: [UInt8]) throws(RTPDumpError) -> (RTPDumpHeader, [RTPDumpRecord]) {
        var reader = try RTPDumpReader(bytes)
        var records: [RTPDumpRecord] = []
        while let record = try reader.next() { records.append(record) }
        return (reader.header, records)
    }

    @Test func readsAFileBuiltFromTheFormat() throws {
        let (header, records) = try Self.readAll(Self.handBuilt)
        #expect(header == RTPDumpHeader(startSeconds: 0x655F_1A00, startMicroseconds: 500_000, address: 0xC000_0201, port: 5004))
        #expect(records == Self.handBuiltRecords)
        #expect(records[2].isCut && !records[0].isCut)
    }

    @Test func writesTheBytesTheFormatGives() throws {
        var file = RTPDumpWriter.fileHeader(RTPDumpHeader(startSeconds: 0x655F_1A00, startMicroseconds: 500_000, address: 0xC000_0201, port: 5004))
        for record in Self.handBuiltRecords { try RTPDumpWriter.append(record, to: &file) }
        #expect(file == Self.handBuilt)
    }

    @Test func roundTripsRTPAndRTCPWithOffsets() throws {
        let header = RTPDumpHeader(startingAt: 1_764_900_000_123_456_789, address: 0x0A4D_0002, port: 40122)
        #expect(header.startSeconds == 1_764_900_000 && header.startMicroseconds == 123_456)
        var records: [RTPDumpRecord] = []
        for index in 0..<6 {
            let rtcp = index % 3 == 2
            let bytes = (0..<(rtcp ? 28 : 160 + index)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
            records.append(RTPDumpRecord(offsetMilliseconds: UInt32(index * 20), isRTCP: rtcp, bytes: bytes))
        }
        records.append(RTPDumpRecord(offsetMilliseconds: .max, isRTCP: false, bytes: [0x80, 0x60], originalLength: 65535))
        records.append(RTPDumpRecord(offsetMilliseconds: 200, isRTCP: true, bytes: []))
        records.append(RTPDumpRecord(offsetMilliseconds: 220, isRTCP: false, bytes: [UInt8](repeating: 0xAB, count: RTPDumpRecord.maximumPacketLength)))
        var file = RTPDumpWriter.fileHeader(header)
        for record in records { try RTPDumpWriter.append(record, to: &file) }

        var reader = try RTPDumpReader(file)
        #expect(reader.header == header)
        var read: [RTPDumpRecord] = []
        while let record = try reader.next() { read.append(record) }
        #expect(read == records)
        #expect(reader.offset == file.count)
        #expect(try reader.next() == nil)
    }

    @Test func textLineNamesTheAddressAndPort() {
        let bytes = RTPDumpWriter.fileHeader(RTPDumpHeader(address: 0xC0A8_00FF, port: 65535))
        #expect(bytes.starts(with: Array("#!rtpplay1.0 192.168.0.255/65535\n".utf8)))
        #expect(bytes.count == 33 + RTPDumpHeader.binaryLength)
        #expect(RTPDumpWriter.fileHeader(RTPDumpHeader()).starts(with: Array("#!rtpplay1.0 127.0.0.1/5004\n".utf8)))
    }

    @Test func headerTimesClampAndOffsetsCountFromTheStart() {
        #expect(RTPDumpHeader(startingAt: -5) == RTPDumpHeader())
        #expect(RTPDumpHeader(startingAt: .max).startSeconds == .max)
        let header = RTPDumpHeader(startSeconds: 100, startMicroseconds: 250_000)
        #expect(header.offsetMilliseconds(atWallNanoseconds: 100_250_000_000) == 0)
        #expect(header.offsetMilliseconds(atWallNanoseconds: 101_000_000_000) == 750)
        #expect(header.offsetMilliseconds(atWallNanoseconds: 99_000_000_000) == 0)
        #expect(header.offsetMilliseconds(atWallNanoseconds: .min) == 0)
        #expect(header.offsetMilliseconds(atWallNanoseconds: .max) == .max)
    }

    // MARK: Hostile files

    static let line = Array("#!rtpplay1.0 127.0.0.1/5004\n".utf8)
    static let binaryHeader = [UInt8](repeating: 0, count: RTPDumpHeader.binaryLength)
    static let recordsStart = line.count + RTPDumpHeader.binaryLength

    @Test(arguments: [
        ([], RTPDumpError.notRTPDump("no line end in the first 128 bytes")),
        (Array("#!rtpplay1.0 ".utf8) + [UInt8](repeating: 0x41, count: 200) + [0x0A], .notRTPDump("no line end in the first 128 bytes")),
        (Array("#!rtpplay2.0 127.0.0.1/5004\n".utf8) + binaryHeader, .notRTPDump("the file does not start with #!rtpplay1.0 ")),
        (Array("#!rtpplay1.0\n".utf8) + binaryHeader, .notRTPDump("the file does not start with #!rtpplay1.0 ")),
        (Array("RIFF".utf8), .notRTPDump("the file does not start with #!rtpplay1.0 ")),
        (line + [0, 0, 0, 1, 0, 0, 0, 2, 0x7F, 0, 0], .truncated(offset: 28)),
        (line + [0, 0, 0, 1, 0, 0, 0, 2, 0x7F, 0, 0, 1, 0x13, 0x8C, 0], .truncated(offset: 28)),  // the padding cut
    ] as [([UInt8], RTPDumpError)])
    func refusesABadStart(bytes: [UInt8], expected: RTPDumpError) {
        #expect(throws: expected) { try RTPDumpReader(bytes) }
    }

    @Test(arguments: [
        ([0x00, 0x14, 0x00], RTPDumpError.truncated(offset: 44)),  // the record header cut
        ([0x00, 0x14, 0x00, 0x0C, 0, 0, 0, 0, 0x80, 0x60], .truncated(offset: 44)),  // 12 declared, 2 there
        ([0xFF, 0xFF, 0x00, 0x00, 0, 0, 0, 0], .truncated(offset: 44)),  // 65527 declared, none there
        ([0x00, 0x07, 0x00, 0x00, 0, 0, 0, 0], .badRecord(offset: 44, "length 7 is shorter than the record header")),
        ([0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0], .badRecord(offset: 44, "length 0 is shorter than the record header")),
        ([0x00, 0x0C, 0x00, 0x03, 0, 0, 0, 0, 1, 2, 3, 4], .badRecord(offset: 44, "4 bytes stored of a packet of 3")),
    ] as [([UInt8], RTPDumpError)])
    func refusesABadRecord(record: [UInt8], expected: RTPDumpError) throws {
        var reader = try RTPDumpReader(Self.line + Self.binaryHeader + record)
        #expect(throws: expected) { try reader.next() }
        // The reader stays on the bad record.
        #expect(throws: expected) { try reader.next() }
        #expect(reader.offset == Self.recordsStart)
    }

    @Test func keepsACutPacketAndAnEmptyOne() throws {
        let (_, records) = try Self.readAll(Self.line + Self.binaryHeader + [0x00, 0x0A, 0x05, 0xDC, 0, 0, 0, 9, 0x80, 0x60] + [0x00, 0x08, 0x00, 0x40, 0, 0, 0, 10])
        #expect(records == [
            RTPDumpRecord(offsetMilliseconds: 9, isRTCP: false, bytes: [0x80, 0x60], originalLength: 1500),
            RTPDumpRecord(offsetMilliseconds: 10, isRTCP: false, bytes: [], originalLength: 64),
        ])
    }

    @Test func writerRefusesWhatARecordCannotHold() {
        var file = RTPDumpWriter.fileHeader(RTPDumpHeader())
        let before = file
        let tooLong = [UInt8](repeating: 0, count: RTPDumpRecord.maximumPacketLength + 1)
        #expect(throws: RTPDumpError.packetTooLarge(65528)) {
            try RTPDumpWriter.append(RTPDumpRecord(offsetMilliseconds: 0, isRTCP: true, bytes: tooLong), to: &file)
        }
        #expect(throws: RTPDumpError.packetTooLarge(65536)) {
            try RTPDumpWriter.append(RTPDumpRecord(offsetMilliseconds: 0, isRTCP: false, bytes: [0x80], originalLength: 65536), to: &file)
        }
        #expect(throws: RTPDumpError.badRecord(offset: 44, "original length 1 is less than the 2 bytes stored")) {
            try RTPDumpWriter.append(RTPDumpRecord(offsetMilliseconds: 0, isRTCP: false, bytes: [0x80, 0x60], originalLength: 1), to: &file)
        }
        #expect(throws: RTPDumpError.badRecord(offset: 44, "an empty RTP packet would read back as RTCP")) {
            try RTPDumpWriter.append(RTPDumpRecord(offsetMilliseconds: 0, isRTCP: false, bytes: []), to: &file)
        }
        #expect(file == before)
    }

    /// Every prefix of a valid file: the records that fit whole, then `.truncated` at the one
    /// that was cut, or nil when the cut falls between records.
    @Test func everyTruncationReadsItsWholeRecordsThenStops() {
        for length in 0...Self.handBuilt.count {
            let prefix = Array(Self.handBuilt.prefix(length))
            var reader: RTPDumpReader
            do {
                reader = try RTPDumpReader(prefix)
            } catch {
                let expected: RTPDumpError = length < Self.handBuiltLineLength
                    ? .notRTPDump("no line end in the first 128 bytes") : .truncated(offset: Self.handBuiltLineLength)
                #expect(error == expected, "prefix of \(length)")
                #expect(length < Self.handBuiltBoundaries[0])
                continue
            }
            let whole = Self.handBuiltBoundaries.dropFirst().filter { $0 <= length }.count
            var records: [RTPDumpRecord] = []
            do {
                while let record = try reader.next() { records.append(record) }
                #expect(Self.handBuiltBoundaries.contains(length), "prefix of \(length) read to its end")
            } catch {
                #expect(error == .truncated(offset: Self.handBuiltBoundaries[whole]), "prefix of \(length)")
            }
            #expect(records == Array(Self.handBuiltRecords.prefix(whole)), "prefix of \(length)")
        }
    }

    /// Seeded random byte flips of a valid file: a header and records, or a typed error, and
    /// never more records than the file has room for.
    @Test func flippedBytesNeverTrap() {
        var generator = SeededRandom(state: 0x5EED_D0F0)
        var outcomes = (files: 0, records: 0, errors: 0)
        for _ in 0..<5000 {
            var bytes = Self.handBuilt
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                var reader = try RTPDumpReader(bytes)
                var count = 0
                while let record = try reader.next() {
                    count += 1
                    #expect(record.bytes.count <= bytes.count && record.originalLength >= record.bytes.count)
                    #expect(count <= bytes.count / RTPDumpRecord.headerLength)
                }
                outcomes.files += 1
                outcomes.records += count
            } catch {
                outcomes.errors += 1
            }
        }
        #expect(outcomes.files > 0 && outcomes.errors > 0)
    }

    // MARK: Files

    @Test func readsAFileAndRefusesOneOverItsLimit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rtpdump-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("capture.rtpdump").path
        try Data(Self.handBuilt).write(to: URL(fileURLWithPath: path))

        var reader = try RTPDumpReader(contentsOf: path, maxBytes: Self.handBuilt.count)
        var records: [RTPDumpRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(records == Self.handBuiltRecords)

        #expect(throws: RTPDumpError.fileTooLarge(bytes: 100, limit: 99)) { try RTPDumpReader(contentsOf: path, maxBytes: 99) }
        #expect(throws: RTPDumpError.unreadable("\(directory.path): not a regular file")) {
            try RTPDumpReader(contentsOf: directory.path, maxBytes: 1 << 20)
        }
        #expect(throws: RTPDumpError.self) { try RTPDumpReader(contentsOf: directory.appendingPathComponent("none").path, maxBytes: 1 << 20) }
    }

    @Test func errorsReadAsSentences() {
        #expect(RTPDumpError.truncated(offset: 44).description == "rtpdump file cut short in the record or header at byte 44")
        #expect(RTPDumpError.fileTooLarge(bytes: 100, limit: 99).description == "rtpdump file of 100 bytes, over the limit of 99")
    }
}
