import Testing

@testable import Agent
@testable import AgentMedia

@Suite struct H264PacketizerTests {
    typealias Stream = H264TestStream

    static let keyframe = Stream.annexB([Stream.sps, Stream.pps, Stream.idrSlice0, Stream.idrSlice1])

    /// An IDR slice of `count` bytes: the real first slice's header, then filler without zero
    /// bytes (so no start code or trailing zero appears in it).
    static func largeSlice(_ count: Int) -> [UInt8] {
        Array(Stream.idrSlice0.prefix(min(count, 4))) + (0..<max(count - 4, 0)).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) }
    }

    /// The Annex B access unit the depacketizer makes of `payloads`.
    static func depacketize(_ payloads: [[UInt8]]) throws -> [UInt8] {
        var output: [UInt8] = []
        for payload in payloads {
            try payload.withUnsafeBytes { (bytes) throws in try H264Depacketizer.appendAnnexB(of: bytes, to: &output) }
        }
        return output
    }

    @Test func smallNALUnitsShareOneSTAPA() {
        let payloads = H264Packetizer(maxPayloadSize: 1200).packetize(Self.keyframe)
        let expected: [UInt8] = [0x78]  // F=0, NRI=3 (the largest), type 24
            + [0x00, 0x16] + Stream.sps + [0x00, 0x04] + Stream.pps
            + [0x00, 0x14] + Stream.idrSlice0 + [0x00, 0x14] + Stream.idrSlice1
        #expect(payloads == [expected])
    }

    @Test func theSTAPATakesTheLargestNRIAndAnyForbiddenBit() {
        let units: [[UInt8]] = [[0x06, 0x05, 0x80], [0xA1, 0x9A]]  // SEI with NRI 0; F=1, NRI 1, type 1
        #expect(H264Packetizer().packetize(Stream.annexB(units)) == [[0xB8, 0x00, 0x03, 0x06, 0x05, 0x80, 0x00, 0x02, 0xA1, 0x9A]])
    }

    @Test func whatDoesNotFitTogetherGoesAloneOrInFragments() throws {
        // 30 bytes: the SPS (22) cannot share with the PPS (1 + 24 + 6 = 31); the PPS and the first
        // slice can (1 + 6 + 22 = 29); the second slice goes alone.
        let payloads = H264Packetizer(maxPayloadSize: 30).packetize(Self.keyframe)
        #expect(payloads == [Stream.sps, [0x78, 0x00, 0x04] + Stream.pps + [0x00, 0x14] + Stream.idrSlice0, Stream.idrSlice1])
        #expect(try Self.depacketize(payloads) == Self.keyframe)
    }

    @Test func aLargeNALUnitIsCutIntoNearEqualFUAPieces() throws {
        let slice = Self.largeSlice(3000)
        let payloads = H264Packetizer(maxPayloadSize: 1200).packetize(Stream.annexB([slice]))
        // 2999 bytes after the header, 1198 per piece at most: three pieces of 1000, 1000, 999.
        #expect(payloads.map(\.count) == [1002, 1002, 1001])
        #expect(payloads.map { Array($0.prefix(2)) } == [[0x7C, 0x85], [0x7C, 0x05], [0x7C, 0x45]])
        #expect(Array(payloads[0][2...]) == Array(slice[1..<1001]))
        #expect(try Self.depacketize(payloads) == Stream.annexB([slice]))
    }

    /// The exact sizes where the packetizer changes its mind.
    @Test(arguments: [20, 21, 64, 1200])
    func boundarySizes(maxPayloadSize: Int) throws {
        let packetizer = H264Packetizer(maxPayloadSize: maxPayloadSize)
        // A NAL unit of exactly the payload size goes alone; one byte more needs two FU-As.
        let fits = Self.largeSlice(maxPayloadSize)
        #expect(packetizer.packetize(Stream.annexB([fits])) == [fits])
        let over = Self.largeSlice(maxPayloadSize + 1)
        let fragments = packetizer.packetize(Stream.annexB([over]))
        #expect(fragments.map(\.count) == [2 + (maxPayloadSize + 1) / 2, 2 + maxPayloadSize / 2])
        #expect(try Self.depacketize(fragments) == Stream.annexB([over]))
        // Two units that fill a STAP-A exactly (1 + 2 + a + 2 + b) share it; a byte more, they do not.
        let first = Array(Stream.pps.prefix(2))
        let second = Self.largeSlice(maxPayloadSize - 7)
        #expect(packetizer.packetize(Stream.annexB([first, second])).map(\.count) == [maxPayloadSize])
        let longer = Self.largeSlice(maxPayloadSize - 6)
        #expect(packetizer.packetize(Stream.annexB([first, longer])) == [first, longer])
    }

    @Test(arguments: [3, 4, 7, 25, 100, 1200])
    func packetizeThenDepacketizeGivesTheAccessUnitBack(maxPayloadSize: Int) throws {
        let accessUnit = Stream.annexB([[0x09, 0xF0], Stream.sps, Stream.pps, Self.largeSlice(2500), Stream.idrSlice1])
        let payloads = H264Packetizer(maxPayloadSize: maxPayloadSize).packetize(accessUnit)
        #expect(payloads.allSatisfy { $0.count <= maxPayloadSize })
        #expect(try Self.depacketize(payloads) == accessUnit)
    }

    /// Three-byte start codes and trailing zeros come back as four-byte start codes without them.
    @Test func theRoundTripNormalizesTheFraming() throws {
        let input: [UInt8] = [0, 0, 1] + Stream.pSlice0 + [0, 0, 0, 1] + Stream.pSlice1 + [0, 0]
        let payloads = H264Packetizer(maxPayloadSize: 8).packetize(input)
        #expect(try Self.depacketize(payloads) == Stream.annexB([Stream.pSlice0, Stream.pSlice1]))
    }

    /// Types 0 and 24-31 are no NAL units of a stream; a receiver would read them as packet
    /// structures, so they are left out.
    @Test func rtpPacketTypesInTheInputAreLeftOut() {
        let input = Stream.annexB([[0x78, 0x00, 0x01, 0x09], [0x00, 0x42], Stream.pSlice0, [0x7C, 0x85, 0x88]])
        #expect(H264Packetizer().packetize(input) == [Stream.pSlice0])
    }

    @Test func nothingToSendIsNoPayload() {
        #expect(H264Packetizer().packetize([]).isEmpty)
        #expect(H264Packetizer().packetize([0x41, 0x9A, 0x20]).isEmpty)  // no start code
        #expect(H264Packetizer().packetize([0, 0, 0, 1]).isEmpty)
        #expect(H264Packetizer(maxPayloadSize: 0).maxPayloadSize == 3)
    }
}
