import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentWire

@Suite struct SendStreamTests {
    static let audioSSRC: UInt32 = 0xA0D1_0001
    static let videoSSRC: UInt32 = 0x71DE_0002
    static let subscriber: UInt32 = 0x5B5C_0003

    static func audio(sequence: UInt16 = 100, offset: UInt32 = 0, mid: (UInt8, String)? = nil) throws -> SendStream {
        try SendStream(
            configuration: .init(
                codec: .opus, ssrc: audioSSRC, payloadType: 111, cname: "agentd-test", midExtension: mid,
                initialSequenceNumber: sequence, timestampOffset: offset))
    }

    static func video(sequence: UInt16 = 100, offset: UInt32 = 0, mid: (UInt8, String)? = nil, historyCapacity: Int = 1024) throws -> SendStream {
        try SendStream(
            configuration: .init(
                codec: .vp8, ssrc: videoSSRC, payloadType: 96, cname: "agentd-test", midExtension: mid,
                initialSequenceNumber: sequence, timestampOffset: offset, initialPictureID: 7, historyCapacity: historyCapacity))
    }

    /// A VP8-looking frame: the first byte is the frame tag (bit 0 clear: keyframe, RFC 6386
    /// §9.1), then a pattern that differs per frame so misordered bytes would show.
    static func vp8Frame(size: Int, keyframe: Bool, seed: UInt8) -> [UInt8] {
        [keyframe ? 0x10 : 0x11] + (1..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    static func header(_ packet: [UInt8]) throws -> RTPHeader { try RTPHeader.parse(packet) }

    static func mid(_ packet: [UInt8], id: UInt8) throws -> String? {
        let header = try RTPHeader.parse(packet)
        let result = packet.withUnsafeBytes { bytes in Result { () throws(RTPError) in try header.mid(extensionID: id, in: bytes) } }
        return try result.get()
    }

    // MARK: - Packetization

    @Test func opusSendsOneFramePerPacketWithSequenceAndTimestampContinuingAcrossTheWrap() throws {
        let clock = ManualMediaClock()
        var stream = try Self.audio(sequence: 65534, offset: 0xFFFF_FC00, mid: (3, "a0"))
        var packets: [[UInt8]] = []
        let frames: [[UInt8]] = (0..<4).map { index in [0x78] + Array(repeating: UInt8(index), count: 40 + index) }
        for (index, frame) in frames.enumerated() {
            let sent = stream.packetize(frame, rtpTimestamp: Int64(index) * 960, isKeyframe: true, capturedAt: clock.now())
            #expect(sent.count == 1)
            packets += sent
            clock.advance(by: .milliseconds(20))
        }
        let headers = try packets.map(Self.header)
        #expect(headers.map(\.sequenceNumber) == [65534, 65535, 0, 1])
        #expect(headers.map(\.timestamp) == [0xFFFF_FC00, 0xFFFF_FFC0, 0x0000_0380, 0x0000_0740])
        #expect(headers.map(\.marker) == [false, false, false, false])
        #expect(headers.map(\.payloadType) == [111, 111, 111, 111])
        #expect(headers.map(\.ssrc) == Array(repeating: Self.audioSSRC, count: 4))
        #expect(try packets.map { try Self.mid($0, id: 3) } == ["a0", "a0", "a0", "a0"])
        // 12 fixed + 4 extension header + 4 element words (1 + 2 bytes, padded).
        #expect(headers.map(\.payloadRange.lowerBound) == [20, 20, 20, 20])
        #expect(zip(packets, headers).map { Array($0[$1.payloadRange]) } == frames)
        #expect(stream.nextSequenceNumber == 2)

        let stats = stream.statistics
        #expect(stats.packets == 4)
        #expect(stats.payloadBytes == 41 + 42 + 43 + 44)
        #expect(stats.bytes == 4 * 20 + 41 + 42 + 43 + 44)
        #expect(stats.frames == 4)
    }

    @Test func vp8FrameIsSplitIntoPacketsOfAtMost1200BytesWithTheMarkerOnTheLast() throws {
        var stream = try Self.video(sequence: 65533, offset: 5000, mid: (4, "v1"))
        let frame = Self.vp8Frame(size: 5000, keyframe: true, seed: 1)
        let packets = stream.packetize(frame, rtpTimestamp: 3000, isKeyframe: true, capturedAt: .ms(0))
        // 20-byte header, 4-byte descriptor (15-bit picture id): 1176 frame bytes per packet.
        #expect(packets.map(\.count) == [1200, 1200, 1200, 1200, 5000 - 4 * 1176 + 24])
        let headers = try packets.map(Self.header)
        #expect(headers.map(\.sequenceNumber) == [65533, 65534, 65535, 0, 1])
        #expect(headers.map(\.marker) == [false, false, false, false, true])
        #expect(Set(headers.map(\.timestamp)) == [8000])
        #expect(try packets.map { try Self.mid($0, id: 4) } == Array(repeating: "v1", count: 5))
        // Descriptor: X and S on the first packet only, then I with M (15-bit picture id 7).
        #expect(packets.map { $0[20] } == [0x90, 0x80, 0x80, 0x80, 0x80])
        #expect(packets.map { Array($0[21...23]) } == Array(repeating: [0x80, 0x80, 0x07], count: 5))
        #expect(packets.flatMap { $0[24...] } == frame)

        let next = stream.packetize(Self.vp8Frame(size: 10, keyframe: false, seed: 2), rtpTimestamp: 6000, isKeyframe: false, capturedAt: .ms(33))
        #expect(try next.map(Self.header).map(\.sequenceNumber) == [2])
        #expect(next.first.map { Array($0[21...23]) } == [0x80, 0x80, 0x08])  // picture id + 1
        #expect(stream.statistics.keyframes == 1)
        #expect(stream.statistics.frames == 2)
    }

    @Test func thirtyTwoBitTimestampsAreUnwrappedBeforeTheOffsetIsAdded() throws {
        var stream = try Self.audio(offset: 10)
        let first = stream.packetize([0x78, 1], rtpTimestamp32: UInt32.max - 479, isKeyframe: true, capturedAt: .ms(0))
        let second = stream.packetize([0x78, 2], rtpTimestamp32: 480, isKeyframe: true, capturedAt: .ms(20))
        #expect(try (first + second).map(Self.header).map(\.timestamp) == [UInt32.max - 469, 490])
        #expect(stream.clockAnchor?.rtpTimestamp == Int64(UInt32.max) - 479)
        #expect(stream.statistics.reanchors == 0)  // 960 ticks in 20 ms: on the anchor's line
    }

    @Test func invalidConfigurationIsATypedError() {
        #expect(throws: SendStreamError.invalidMIDExtension(id: 15, length: 1)) { try Self.audio(mid: (15, "a")) }
        #expect(throws: SendStreamError.invalidMIDExtension(id: 1, length: 17)) {
            try Self.audio(mid: (1, String(repeating: "m", count: 17)))
        }
        #expect(throws: SendStreamError.maxPacketSizeTooSmall(16)) {
            try SendStream(configuration: .init(codec: .vp8, ssrc: 1, payloadType: 96, cname: "c", maxPacketSize: 16))
        }
    }

    // MARK: - Round trip

    @Test func vp8FramesComeBackWholeFromAReceiveStream() throws {
        var sender = try Self.video(sequence: 65530, offset: 0xFFFF_F000)
        var receiver = ReceiveStream(
            configuration: .init(kind: .video, clockRate: 90_000, localSSRC: Self.subscriber, remoteSSRC: Self.videoSSRC),
            depacketizer: VP8DepacketizerAdapter())
        let frames = [
            Self.vp8Frame(size: 6000, keyframe: true, seed: 3), Self.vp8Frame(size: 2500, keyframe: false, seed: 4),
            Self.vp8Frame(size: 1, keyframe: false, seed: 5), Self.vp8Frame(size: 1185, keyframe: false, seed: 6),
        ]
        var received: [MediaFrame] = []
        for (index, frame) in frames.enumerated() {
            let at = MediaInstant.ms(Int64(index) * 33)
            for packet in sender.packetize(frame, rtpTimestamp: Int64(index) * 3000, isKeyframe: index == 0, capturedAt: at) {
                #expect(packet.count <= 1200)
                received += try receiver.receive(packet, arrival: at)
            }
        }
        #expect(received.map(\.bytes) == frames)
        #expect(received.map(\.isKeyframe) == [true, false, false, false])
        // Wire timestamps wrap (0xFFFFF000 + 6000 > 2^32); the receiver unwraps them back to steps of 3000.
        #expect(received.map { $0.rtpTimestamp - received[0].rtpTimestamp } == [0, 3000, 6000, 9000])
        #expect(receiver.statistics.packets == sender.statistics.packets)
        #expect(sender.statistics.packets == 6 + 3 + 1 + 2)
        #expect(receiver.statistics.lost == 0)
    }

    /// H.264 access units in Annex B (a keyframe with SPS, PPS and a slice too large for one
    /// packet, then two-slice P frames) go out in STAP-A, FU-A and single NAL unit packets of at
    /// most 1200 bytes, the marker on each access unit's last, and a receive stream gives them back.
    @Test func h264AccessUnitsComeBackWholeFromAReceiveStream() throws {
        var sender = try SendStream(
            configuration: .init(
                codec: .h264, ssrc: Self.videoSSRC, payloadType: 102, cname: "agentd-test", midExtension: (1, "1"),
                initialSequenceNumber: 65533, timestampOffset: 0))
        var receiver = ReceiveStream(
            configuration: .init(kind: .video, clockRate: 90_000, localSSRC: Self.subscriber, remoteSSRC: Self.videoSSRC),
            depacketizer: H264DepacketizerAdapter())
        let largeSlice = Array(H264TestStream.idrSlice0.prefix(4)) + (0..<3000).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) }
        let accessUnits = [
            H264TestStream.annexB([H264TestStream.sps, H264TestStream.pps, largeSlice]),
            H264TestStream.annexB([H264TestStream.pSlice0, H264TestStream.pSlice1]),
            H264TestStream.annexB([H264TestStream.nextPSlice0, H264TestStream.nextPSlice1]),
        ]
        var received: [MediaFrame] = []
        var markers: [Bool] = []
        for (index, accessUnit) in accessUnits.enumerated() {
            let at = MediaInstant.ms(Int64(index) * 33)
            for packet in sender.packetize(accessUnit, rtpTimestamp: Int64(index) * 3000, isKeyframe: index == 0, capturedAt: at) {
                #expect(packet.count <= 1200)
                markers.append(try Self.header(packet).marker)
                received += try receiver.receive(packet, arrival: at)
            }
        }
        // STAP-A(SPS, PPS), three FU-As of the slice; one STAP-A per P frame.
        #expect(markers == [false, false, false, true, true, true])
        #expect(received.map(\.bytes) == accessUnits)
        #expect(received.map(\.isKeyframe) == [true, false, false])
        #expect(receiver.statistics.lost == 0)
    }

    @Test func opusFramesComeBackWholeFromAReceiveStream() throws {
        var sender = try Self.audio(sequence: 65535, mid: (1, "0"))
        var receiver = ReceiveStream(
            configuration: .init(kind: .audio, clockRate: 48_000, localSSRC: Self.subscriber), depacketizer: OpusDepacketizer())
        let frames: [[UInt8]] = (0..<5).map { index in [0xFC] + (0..<(60 + index)).map { UInt8(truncatingIfNeeded: $0 * index) } }
        var received: [MediaFrame] = []
        for (index, frame) in frames.enumerated() {
            let at = MediaInstant.ms(Int64(index) * 20)
            for packet in sender.packetize(frame, rtpTimestamp: Int64(index) * 960, isKeyframe: true, capturedAt: at) {
                received += try receiver.receive(packet, arrival: at)
            }
        }
        #expect(received.map(\.bytes) == frames)
        #expect(received.map(\.rtpTimestamp) == [0, 960, 1920, 2880, 3840])
    }

    @Test func aLostPacketIsNACKedByTheReceiverAndTheRetransmissionCompletesTheFrame() throws {
        var sender = try Self.video(sequence: 65534)
        var receiver = ReceiveStream(
            configuration: .init(kind: .video, clockRate: 90_000, localSSRC: Self.subscriber, remoteSSRC: Self.videoSSRC),
            depacketizer: VP8DepacketizerAdapter())
        let keyframe = Self.vp8Frame(size: 3000, keyframe: true, seed: 8)
        let packets = sender.packetize(keyframe, rtpTimestamp: 0, isKeyframe: true, capturedAt: .ms(0))
        #expect(packets.count == 3)
        #expect(try receiver.receive(packets[0], arrival: .ms(0)).isEmpty)
        #expect(try receiver.receive(packets[2], arrival: .ms(1)).isEmpty)  // packets[1] (wire 65535) lost
        // The receiver's timers: after its reorder tolerance it NACKs 65535 (alongside an RR).
        let feedback = try RTCPPacket.parseCompound(try #require(receiver.tick(now: .ms(30)).rtcp))
        let response = sender.handleRTCP(feedback, now: .ms(31))
        #expect(response.retransmissions == [packets[1]])
        let frames = try receiver.receive(try #require(response.retransmissions.first), arrival: .ms(32))
        #expect(frames.map(\.bytes) == [keyframe])
        #expect(receiver.statistics.recovered == 1)
        #expect(sender.statistics.retransmissions == 1)
    }

    // MARK: - NACK

    @Test func nackForPacketsInTheHistoryResendsExactlyThoseBytes() throws {
        var stream = try Self.video(sequence: 65530)
        var sent: [[UInt8]] = []
        for index in 0..<4 {
            sent += stream.packetize(
                Self.vp8Frame(size: 2000, keyframe: index == 0, seed: UInt8(index)), rtpTimestamp: Int64(index) * 3000,
                isKeyframe: index == 0, capturedAt: .ms(Int64(index) * 33))
        }
        #expect(sent.count == 8)  // wire 65530…65535, 0, 1
        let nack = GenericNACK(senderSSRC: Self.subscriber, mediaSSRC: Self.videoSSRC, lostSequenceNumbers: [65531, 65535, 0, 65531])
        let response = stream.handleRTCP([.receiverReport(ReceiverReport(ssrc: Self.subscriber, reports: [])), .nack(nack)], now: .ms(150))
        #expect(response.retransmissions == [sent[1], sent[5], sent[6]])
        #expect(response.keyframeRequested == false)

        // About another SSRC: not ours to answer.
        let other = GenericNACK(senderSSRC: Self.subscriber, mediaSSRC: Self.audioSSRC, lostSequenceNumbers: [65531])
        #expect(stream.handleRTCP([.nack(other)], now: .ms(160)).retransmissions.isEmpty)

        let stats = stream.statistics
        #expect(stats.nacksReceived == 1)
        #expect(stats.nackedPackets == 4)
        #expect(stats.retransmissions == 3)
        #expect(stats.retransmittedBytes == sent[1].count + sent[5].count + sent[6].count)
        #expect(stats.nackMisses == 0)
        #expect(stats.packets == 8)  // retransmissions are not new packets for the SR
    }

    @Test func nackForPacketsOutOfTheHistoryIsCountedAndNothingIsSent() throws {
        var stream = try Self.audio(sequence: 0)
        var sent: [[UInt8]] = []
        for index in 0..<40 {
            sent += stream.packetize([0x78, UInt8(index)], rtpTimestamp: Int64(index) * 960, isKeyframe: true, capturedAt: .ms(Int64(index) * 20))
        }
        // Capacity 1024 and age 2 s: all 40 are held at 800 ms.
        let held = stream.handleRTCP(
            [.nack(GenericNACK(senderSSRC: Self.subscriber, mediaSSRC: Self.audioSSRC, lostSequenceNumbers: [0, 39]))], now: .ms(800))
        #expect(held.retransmissions == [sent[0], sent[39]])

        // Packet 0 was sent at 0 ms, 39 at 780 ms: at 2500 ms only 39 is young enough; 40 was never sent.
        let aged = stream.handleRTCP(
            [.nack(GenericNACK(senderSSRC: Self.subscriber, mediaSSRC: Self.audioSSRC, lostSequenceNumbers: [0, 39, 40]))], now: .ms(2500))
        #expect(aged.retransmissions == [sent[39]])
        #expect(stream.statistics.nackMisses == 2)
        #expect(stream.statistics.retransmissions == 3)

        // A small history holds the newest 16 only.
        var small = try Self.video(sequence: 0, historyCapacity: 16)
        var smallSent: [[UInt8]] = []
        for index in 0..<20 {
            smallSent += small.packetize([0x11, UInt8(index)], rtpTimestamp: Int64(index) * 3000, isKeyframe: false, capturedAt: .ms(Int64(index)))
        }
        let response = small.handleRTCP(
            [.nack(GenericNACK(senderSSRC: Self.subscriber, mediaSSRC: Self.videoSSRC, lostSequenceNumbers: [3, 4, 19]))], now: .ms(30))
        #expect(response.retransmissions == [smallSent[4], smallSent[19]])
        #expect(small.statistics.nackMisses == 1)
    }

    // MARK: - Keyframe requests

    @Test func pliAndFIRRequestOneKeyframePerIntervalAndARepeatedFIRIsIgnored() throws {
        var stream = try Self.video()
        let pli = RTCPPacket.pictureLoss(PictureLossIndication(senderSSRC: Self.subscriber, mediaSSRC: Self.videoSSRC))
        func fir(_ sequence: UInt8, ssrc: UInt32 = Self.videoSSRC) -> RTCPPacket {
            .fullIntraRequest(FullIntraRequest(senderSSRC: Self.subscriber, entries: [.init(ssrc: ssrc, sequenceNumber: sequence)]))
        }
        func requested(_ packets: [RTCPPacket], at time: Int64) -> Bool {
            stream.handleRTCP(packets, now: .ms(time)).keyframeRequested
        }
        #expect(requested([pli], at: 0))
        #expect(!requested([pli], at: 100))  // within 300 ms
        #expect(!requested([pli, pli], at: 299))
        #expect(requested([pli], at: 300))
        #expect(requested([fir(5)], at: 700))
        #expect(!requested([fir(5)], at: 800))  // the same command again
        #expect(!requested([fir(6)], at: 900))  // a new command, but the keyframe for 700 answers it
        #expect(!requested([fir(6)], at: 1200))  // its repeat: already handled
        #expect(requested([fir(7)], at: 1500))
        // Requests about another SSRC are not ours.
        #expect(!requested([fir(8, ssrc: Self.audioSSRC), .pictureLoss(PictureLossIndication(senderSSRC: 1, mediaSSRC: Self.audioSSRC))], at: 2000))

        let stats = stream.statistics
        #expect(stats.plisReceived == 5)
        #expect(stats.firsReceived == 5)
        #expect(stats.firRepeats == 2)
        #expect(stats.keyframeRequests == 4)
        #expect(stats.keyframeRequestsSuppressed == 4)
    }

    // MARK: - Sender reports

    @Test func senderReportMapsItsNTPTimeToTheRTPTimeOfTheSameInstant() throws {
        let clock = ManualMediaClock()  // wall 2026-01-01T00:00:00Z
        var stream = try Self.video(offset: 0xFFFF_0000)
        #expect(stream.tick(now: clock.now()) == nil)  // nothing sent yet
        let start = clock.now()
        var payloadBytes = 0
        for index in 0..<45 {  // 1.5 s at 30 fps, captured on `clock`
            let frame = Self.vp8Frame(size: 300, keyframe: index == 0, seed: UInt8(index))
            let packets = stream.packetize(frame, rtpTimestamp: Int64(index) * 3000, isKeyframe: index == 0, capturedAt: start + .nanoseconds(Int64(index) * 33_333_333))
            payloadBytes += packets.reduce(0) { $0 + $1.count - 12 }
        }
        // The first SR is due as soon as media has gone out: 1.5 s + 2.5 ms after the first frame.
        let now = clock.advance(by: .microseconds(1_502_500))
        let due = stream.tick(now: now)
        let datagram = try #require(due)
        let packets = try RTCPPacket.parseCompound(datagram)
        #expect(packets.count == 2)
        guard case .senderReport(let report) = packets.first else { Issue.record("expected an SR first"); return }
        // 2026-01-01T00:00:01.5025Z: 1_767_225_601 s Unix + 2_208_988_800 = 3_976_214_401 s NTP,
        // fraction 0.5025 × 2^32 = 2_158_221_066.24 → 2_158_221_066.
        #expect(report.ntpTime == UInt64(3_976_214_401) << 32 | 2_158_221_066)
        // 1.5025 s × 90 kHz = 135_225 ticks after RTP 0, plus the wire offset, wrapped.
        #expect(report.rtpTime == 0xFFFF_0000 &+ 135_225)
        #expect(report.ssrc == Self.videoSSRC)
        #expect(report.packetCount == 45)
        #expect(report.octetCount == UInt32(payloadBytes))
        #expect(packets.last == .sourceDescription(SourceDescription(chunks: [.init(source: Self.videoSSRC, cname: "agentd-test")])))

        #expect(stream.tick(now: clock.advance(by: .milliseconds(999))) == nil)
        // A wall clock step moves the NTP field, not the RTP one (which follows the monotonic clock).
        clock.setWall(clock.now().wallNanoseconds + 250_000_000)
        let secondDue = stream.tick(now: clock.advance(by: .milliseconds(1)))
        let next = try RTCPPacket.parseCompound(try #require(secondDue))
        guard case .senderReport(let second) = next.first else { Issue.record("expected an SR"); return }
        #expect(second.ntpTime == UInt64(3_976_214_402) << 32 | 3_231_962_890)  // .7525 s
        #expect(second.rtpTime == 0xFFFF_0000 &+ 135_225 &+ 90_000)
        #expect(stream.statistics.senderReports == 2)
    }

    @Test func aCaptureTimeFarOffTheAnchorMovesIt() throws {
        var stream = try Self.audio(offset: 0)
        _ = stream.packetize([0x78, 0], rtpTimestamp: 0, isKeyframe: true, capturedAt: .ms(0))
        _ = stream.packetize([0x78, 1], rtpTimestamp: 960 * 10, isKeyframe: true, capturedAt: .ms(210))  // 10 ms late: kept
        #expect(stream.statistics.reanchors == 0)
        // The source looped: timestamp back near 0 at 1 s.
        _ = stream.packetize([0x78, 2], rtpTimestamp: 480, isKeyframe: true, capturedAt: .ms(1000))
        #expect(stream.statistics.reanchors == 1)
        #expect(stream.clockAnchor == RTPClockAnchor(rtpTimestamp: 480, instant: .ms(1000), clockRate: 48_000))
        let packets = try RTCPPacket.parseCompound(stream.senderReport(now: .ms(1010)))
        guard case .senderReport(let report) = packets.first else { Issue.record("expected an SR"); return }
        #expect(report.rtpTime == 480 + 480)
    }

    @Test func ticksRoundToTheNearestAndNeverOverflow() {
        #expect(RTPClockAnchor.ticks(nanoseconds: 10_010_417, clockRate: 48_000) == 481)  // 480.50002
        #expect(RTPClockAnchor.ticks(nanoseconds: 10_010_416, clockRate: 48_000) == 480)  // 480.49997
        #expect(RTPClockAnchor.ticks(nanoseconds: -10_010_417, clockRate: 48_000) == -481)
        // 30 days at 90 kHz.
        #expect(RTPClockAnchor.ticks(nanoseconds: 30 * 86_400 * 1_000_000_000, clockRate: 90_000) == 30 * 86_400 * 90_000)
    }
}
