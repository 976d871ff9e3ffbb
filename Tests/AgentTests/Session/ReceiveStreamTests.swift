import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentWire

@Suite(.offThePool) struct ReceiveStreamTests {
    static let remote = RTPTestPacket.ssrc
    static let local: UInt32 = 0xA6E7_0001

    static func videoStream(nack: Bool = true) -> ReceiveStream {
        ReceiveStream(
            configuration: .init(kind: .video, clockRate: 90_000, localSSRC: local, remoteSSRC: remote, nackEnabled: nack),
            depacketizer: VP8DepacketizerAdapter())
    }

    static func audioStream() -> ReceiveStream {
        ReceiveStream(configuration: .init(kind: .audio, clockRate: 48_000, localSSRC: local), depacketizer: OpusDepacketizer())
    }

    static func vp8(
        _ stream: inout ReceiveStream, sequence: UInt16, timestamp: UInt32, marker: Bool = false, startsFrame: Bool,
        keyframe: Bool = false, body: [UInt8], at time: Int64
    ) throws -> [MediaFrame] {
        let payload = RTPTestPacket.vp8Payload(startsFrame: startsFrame, keyframe: keyframe, body: body)
        return try stream.receive(
            RTPTestPacket.make(sequence: sequence, timestamp: timestamp, marker: marker, payload: payload), arrival: .ms(time))
    }

    static func parse(_ rtcp: [UInt8]?) throws -> [RTCPPacket] {
        guard let rtcp else { return [] }
        return try RTCPPacket.parseCompound(rtcp)
    }

    @Test func lostPacketIsNACKedAcrossTheWrapAndItsRetransmissionCompletesTheFrame() throws {
        var stream = Self.videoStream()
        #expect(try Self.vp8(&stream, sequence: 65533, timestamp: 0, startsFrame: true, keyframe: true, body: [1], at: 0).isEmpty)
        #expect(try Self.vp8(&stream, sequence: 65534, timestamp: 0, startsFrame: false, body: [2], at: 1).isEmpty)
        let keyframe = try Self.vp8(&stream, sequence: 65535, timestamp: 0, marker: true, startsFrame: false, body: [3], at: 2)
        #expect(keyframe.map(\.bytes) == [[0x00, 1, 2, 3]])
        #expect(keyframe.first?.isKeyframe == true)

        // First report: an RR with one block, and no PLI since the keyframe already came.
        let report = try Self.parse(stream.tick(now: .ms(5)).rtcp)
        #expect(report.count == 1)
        guard case .receiverReport(let rr) = report.first else { Issue.record("expected an RR"); return }
        #expect(rr.ssrc == Self.local)
        #expect(rr.reports.map(\.ssrc) == [Self.remote])
        #expect(rr.reports.first?.extendedHighestSequence == 65535)
        #expect(rr.reports.first?.cumulativeLost == 0)

        // Frame 2 over wire 0, 1, 2 with 1 lost, then frame 3 on wire 3.
        #expect(try Self.vp8(&stream, sequence: 0, timestamp: 3000, startsFrame: true, body: [4], at: 33).isEmpty)
        #expect(try Self.vp8(&stream, sequence: 2, timestamp: 3000, marker: true, startsFrame: false, body: [6], at: 35).isEmpty)
        #expect(try Self.vp8(&stream, sequence: 3, timestamp: 6000, marker: true, startsFrame: true, body: [7], at: 66).isEmpty)
        #expect(stream.tick(now: .ms(54)).rtcp == nil)  // 19 ms: still within reorder tolerance
        let nack = try Self.parse(stream.tick(now: .ms(55)).rtcp)
        // The NACK comes with a report block for the stream: Janus drops feedback whose RR has none.
        #expect(nack.count == 2)
        guard case .receiverReport(let withNACK) = nack.first else { Issue.record("expected an RR first"); return }
        #expect(withNACK.ssrc == Self.local)
        #expect(withNACK.reports.map(\.ssrc) == [Self.remote])
        #expect(withNACK.reports.first?.cumulativeLost == 1)
        #expect(nack.last == .nack(GenericNACK(senderSSRC: Self.local, mediaSSRC: Self.remote, lostSequenceNumbers: [1])))

        let frames = try Self.vp8(&stream, sequence: 1, timestamp: 3000, startsFrame: false, body: [5], at: 90)
        #expect(frames.map(\.bytes) == [[0x01, 4, 5, 6], [0x01, 7]])
        #expect(frames.map(\.firstSequence) == [65536, 65539])
        #expect(frames.map(\.rtpTimestamp) == [3000, 6000])
        #expect(stream.tick(now: .ms(300)).rtcp == nil)  // recovered: no retry, no report yet

        let stats = stream.statistics
        #expect(stats.packets == 7)
        #expect(stats.bytes == 7 * 2 + 3)  // descriptor + body byte each, plus three frame tags
        #expect(stats.recovered == 1)
        #expect(stats.lost == 0)
        #expect(stats.nacks == 1)
        #expect(stats.nackedPackets == 1)
        #expect(stats.frames == 3)
        #expect(stats.keyframes == 1)
        #expect(stats.plis == 0)
        #expect(stats.cumulativeLost == 0)
        #expect(stats.firstFrameAt == .ms(2))
        #expect(stats.firstKeyframeAt == .ms(2))
    }

    @Test func unrecoverableLossAsksPLIThenFIRAtABoundedRate() throws {
        var stream = Self.videoStream(nack: false)
        var sequence: UInt16 = 10
        var requests: [String] = []
        var reportTimes: [Int64] = []
        var emitted = 0
        for time in stride(from: Int64(0), through: 3000, by: 100) {
            let timestamp = UInt32(time * 90)
            if time == 1300 {  // three packets, the middle one never arrives
                emitted += try Self.vp8(&stream, sequence: sequence, timestamp: timestamp, startsFrame: true, body: [1], at: time).count
                emitted += try Self.vp8(&stream, sequence: sequence + 2, timestamp: timestamp, marker: true, startsFrame: false, body: [3], at: time).count
                sequence += 3
            } else {
                emitted += try Self.vp8(
                    &stream, sequence: sequence, timestamp: timestamp, marker: true, startsFrame: true, keyframe: time == 1200,
                    body: [9], at: time
                ).count
                sequence += 1
            }
            let tick = stream.tick(now: .ms(time))
            emitted += tick.frames.count
            for packet in try Self.parse(tick.rtcp) {
                switch packet {
                case .receiverReport(let rr) where !rr.reports.isEmpty: reportTimes.append(time)
                case .pictureLoss: requests.append("\(time) PLI")
                case .fullIntraRequest(let fir): requests.append("\(time) FIR \(fir.entries.map(\.sequenceNumber))")
                default: break
                }
            }
        }
        #expect(requests == ["0 PLI", "500 PLI", "1000 FIR [0]", "1900 PLI", "2400 PLI", "2900 FIR [1]"])
        // Every request carries a report block (Janus drops feedback without one), and restarts
        // the one-second report cadence.
        #expect(reportTimes == [0, 500, 1000, 1900, 2400, 2900])
        let stats = stream.statistics
        #expect(stats.plis == 4)
        #expect(stats.firs == 2)
        #expect(stats.keyframes == 1)
        #expect(stats.lost == 1)
        #expect(stats.frameLosses == 1)
        #expect(stats.frames == 30)  // 31 frames sent, the broken one dropped
        #expect(emitted == 30)
        #expect(stats.nacks == 0)
    }

    @Test func audioLossIsNACKedThreeTimesThenGivenUpAndTheStreamMovesOn() throws {
        var stream = Self.audioStream()
        var nackTimes: [Int64] = []
        var frames: [Int64] = []
        for time in stride(from: Int64(0), through: 800, by: 10) {
            if time % 20 == 0, time != 40 {  // one Opus packet per 20 ms; the one due at 40 ms is lost
                let sequence = UInt16(time / 20)
                frames += try stream.receive(
                    RTPTestPacket.make(sequence: sequence, timestamp: UInt32(time * 48), payload: [0xFC, UInt8(sequence)]),
                    arrival: .ms(time)
                ).map(\.lastSequence)
            }
            let tick = stream.tick(now: .ms(time))
            frames += tick.frames.map(\.lastSequence)
            for case .nack(let nack) in try Self.parse(tick.rtcp) {
                #expect(nack.lostSequenceNumbers == [2])
                nackTimes.append(time)
            }
        }
        // Gap seen at 60 ms; first NACK after 20 ms of reorder tolerance, then every 100 ms (RTT).
        #expect(nackTimes == [80, 180, 280])
        // Packets 3… wait behind the hole until the jitter buffer gives up, 600 ms after packet 3.
        #expect(frames == [0, 1] + Array(3...40))
        let stats = stream.statistics
        #expect(stats.lost == 1)
        #expect(stats.recovered == 0)
        #expect(stats.nacks == 3)
        #expect(stats.plis == 0)
        #expect(stats.frameLosses == 1)
        #expect(stats.cumulativeLost == 1)
    }

    @Test func keyframeRequestsPauseWhileTheSenderIsSilent() throws {
        var stream = Self.videoStream()
        _ = try Self.vp8(&stream, sequence: 1, timestamp: 0, marker: true, startsFrame: true, body: [1], at: 0)
        var requests: [Int64] = []
        for time in stride(from: Int64(0), through: 5000, by: 250) {
            if try !Self.parse(stream.tick(now: .ms(time)).rtcp).filter({ if case .receiverReport = $0 { false } else { true } }).isEmpty {
                requests.append(time)
            }
        }
        #expect(requests == [0, 500, 1000, 1500])
        #expect(stream.statistics.plis == 3)  // PLI, PLI, then FIR and PLI in turn
        #expect(stream.statistics.firs == 1)
    }

    @Test func senderReportMapsFramesToWallTimeAcrossTheTimestampWrap() throws {
        var stream = Self.audioStream()
        let start: UInt32 = 0xFFFF_FC40  // 960 samples before the wrap
        let first = try stream.receive(RTPTestPacket.make(sequence: 7, timestamp: start, payload: [0xFC]), arrival: .ms(0))
        #expect(stream.clockMapping.source == .arrival)
        let arrivalWall = MediaInstant.ms(0).wallNanoseconds
        #expect(first.map { stream.clockMapping.wallNanoseconds(forRTP: $0.rtpTimestamp) } == [arrivalWall])

        // The sender says RTP 0 (just past the wrap) is exactly 2026-01-01T00:00:10Z.
        let srTime: Int64 = 1_767_225_610_000_000_000
        var bytes: [UInt8] = []
        SenderReport(ssrc: Self.remote, ntpTime: NTPTime.ntp(fromUnixNanoseconds: srTime), rtpTime: 0, packetCount: 1, octetCount: 1)
            .write(into: &bytes)
        stream.receiveRTCP(try RTCPPacket.parseCompound(bytes), arrival: .ms(15))
        #expect(stream.clockMapping.source == .senderReport)

        let second = try stream.receive(RTPTestPacket.make(sequence: 8, timestamp: 0, payload: [0xFC]), arrival: .ms(20))
        let third = try stream.receive(RTPTestPacket.make(sequence: 9, timestamp: 960, payload: [0xFC]), arrival: .ms(40))
        #expect(second.first?.rtpTimestamp == 1 << 32)
        #expect(third.first.flatMap { stream.clockMapping.wallNanoseconds(forRTP: $0.rtpTimestamp) } == srTime + 20_000_000)
        #expect(first.first.flatMap { stream.clockMapping.wallNanoseconds(forRTP: $0.rtpTimestamp) } == srTime - 20_000_000)
        #expect(first.first.flatMap { stream.clockMapping.arrivalBasedWallNanoseconds(forRTP: $0.rtpTimestamp) } == arrivalWall)

        let rr = try Self.parse(stream.tick(now: .ms(1015)).rtcp)
        guard case .receiverReport(let report) = rr.first else { Issue.record("expected an RR"); return }
        #expect(report.reports.first?.lastSenderReport == NTPTime.compact(NTPTime.ntp(fromUnixNanoseconds: srTime)))
        #expect(report.reports.first?.delaySinceLastSenderReport == 65_536)
        #expect(rr.count == 1)  // audio: no NACK (nothing lost), never PLI
    }

    @Test func hostileInputIsRefusedWithTypedErrorsAndCounted() throws {
        var stream = Self.audioStream()
        #expect(throws: ReceiveStreamError.malformed(.truncated(needed: 12, got: 0))) { try stream.receive([], arrival: .ms(0)) }
        #expect(throws: ReceiveStreamError.malformed(.badVersion(1))) {
            try stream.receive([0x40, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xFC], arrival: .ms(0))
        }
        #expect(try stream.receive(RTPTestPacket.make(sequence: 100, timestamp: 0, payload: [1]), arrival: .ms(0)).count == 1)
        #expect(throws: ReceiveStreamError.unexpectedSSRC(7)) {
            try stream.receive(RTPTestPacket.make(sequence: 101, timestamp: 960, ssrc: 7, payload: [1]), arrival: .ms(1))
        }
        // An empty Opus payload: refused, but its number is accounted for, so 102 need not wait.
        #expect(throws: ReceiveStreamError.malformedPayload(.emptyPayload)) {
            try stream.receive(RTPTestPacket.make(sequence: 101, timestamp: 960, payload: []), arrival: .ms(2))
        }
        // One absurd jump is dropped on probation; the stream goes on as if it never came.
        #expect(throws: ReceiveStreamError.sequenceJump(distance: 29_999)) {
            try stream.receive(RTPTestPacket.make(sequence: 30_100, timestamp: 960, payload: [1]), arrival: .ms(3))
        }
        #expect(throws: ReceiveStreamError.sequenceJump(distance: -4_901)) {
            try stream.receive(RTPTestPacket.make(sequence: 100 &- 4_900, timestamp: 960, payload: [1]), arrival: .ms(4))
        }
        #expect(try stream.receive(RTPTestPacket.make(sequence: 102, timestamp: 1920, payload: [2]), arrival: .ms(40)).count == 1)
        // Two in a row after a jump: the sender restarted; the stream follows without counting loss.
        // (40000 is nearer to 102 backwards across the wrap: 40000 − 65536 − 102.)
        #expect(throws: ReceiveStreamError.sequenceJump(distance: -25_638)) {
            try stream.receive(RTPTestPacket.make(sequence: 40_000, timestamp: 2880, payload: [3]), arrival: .ms(60))
        }
        let restarted = try stream.receive(RTPTestPacket.make(sequence: 40_001, timestamp: 3840, payload: [4]), arrival: .ms(80))
        #expect(restarted.map(\.bytes) == [[4]])
        #expect(restarted.first?.firstSequence == 40_001)
        #expect(try stream.receive(RTPTestPacket.make(sequence: 40_002, timestamp: 4800, payload: [5]), arrival: .ms(100)).count == 1)

        let stats = stream.statistics
        #expect(stats.malformed == 4)
        #expect(stats.sequenceJumps == 3)
        #expect(stats.restarts == 1)
        #expect(stats.frames == 4)
        #expect(stats.lost == 0)
        #expect(stats.packets == 5)  // 100, 101 (refused payload), 102, 40001, 40002
    }

    @Test func framesReleasedByARefusedPayloadAreNotLost() throws {
        var stream = Self.videoStream()
        _ = try Self.vp8(&stream, sequence: 1, timestamp: 0, marker: true, startsFrame: true, keyframe: true, body: [1], at: 0)
        _ = try Self.vp8(&stream, sequence: 2, timestamp: 3000, startsFrame: true, body: [2], at: 33)
        // 3 is missing for now; frame 4 waits behind it.
        #expect(try Self.vp8(&stream, sequence: 4, timestamp: 6000, marker: true, startsFrame: true, body: [4], at: 66).isEmpty)
        // 3 arrives unreadable: frame 2 is spoiled, which releases frame 4.
        #expect(throws: ReceiveStreamError.malformedPayload(.vp8(.truncatedDescriptor))) {
            try stream.receive(RTPTestPacket.make(sequence: 3, timestamp: 3000, marker: true, payload: [0x80]), arrival: .ms(70))
        }
        let released = stream.tick(now: .ms(71)).frames
        #expect(released.map(\.firstSequence) == [4])
        #expect(stream.statistics.frames == 2)
        #expect(stream.statistics.frameLosses == 1)
    }

    @Test func randomBytesNeverTrap() {
        var stream = Self.videoStream()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {  // xorshift64: deterministic, so a failure reproduces
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        var errors = 0
        var frames = 0
        for index in 0..<5_000 {
            var bytes = (0..<Int(next() % 48)).map { _ in UInt8(truncatingIfNeeded: next()) }
            if index % 2 == 0, !bytes.isEmpty {  // half look like RTP of the right SSRC
                bytes[0] = 0x80 | (bytes[0] & 0x3F)
                if bytes.count >= 12 { bytes.replaceSubrange(8..<12, with: [0x12, 0x34, 0x56, 0x78]) }
            }
            do {
                frames += try stream.receive(bytes, arrival: .ms(Int64(index))).count
            } catch {
                errors += 1
            }
            frames += stream.tick(now: .ms(Int64(index))).frames.count
        }
        let stats = stream.statistics
        #expect(errors > 2_500)
        #expect(errors == stats.malformed + stats.sequenceJumps)
        #expect(frames == stats.frames)
    }
}
