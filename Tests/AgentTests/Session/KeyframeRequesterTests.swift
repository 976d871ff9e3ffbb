import Testing

@testable import Agent
@testable import AgentSession
@testable import AgentWire

@Suite struct KeyframeRequesterTests {
    static let pli = RTCPPacket.pictureLoss(PictureLossIndication(senderSSRC: 1, mediaSSRC: 2))
    static func fir(_ sequence: UInt8) -> RTCPPacket {
        .fullIntraRequest(FullIntraRequest(senderSSRC: 1, entries: [.init(ssrc: 2, sequenceNumber: sequence)]))
    }

    @Test func nothingIsRequestedBeforeAnyPacket() {
        var requester = KeyframeRequester(senderSSRC: 1, mediaSSRC: 2)
        #expect(requester.tick(now: .ms(0)) == nil)
        #expect(requester.tick(now: .ms(5000)) == nil)
    }

    @Test func subscribeAsksWithPLIThenEscalatesToFIRAndPLIInTurnAtABoundedRate() {
        var requester = KeyframeRequester(senderSSRC: 1, mediaSSRC: 2)
        requester.packetReceived(at: .ms(0))
        var sent: [(Int64, RTCPPacket)] = []
        for time in stride(from: Int64(0), through: 2600, by: 100) {
            requester.packetReceived(at: .ms(time))
            if let packet = requester.tick(now: .ms(time)) { sent.append((time, packet)) }
        }
        #expect(sent.map(\.0) == [0, 500, 1000, 1500, 2000, 2500])
        #expect(sent.map(\.1) == [Self.pli, Self.pli, Self.fir(0), Self.pli, Self.fir(1), Self.pli])
        #expect(requester.counters.plis == 4)
        #expect(requester.counters.firs == 2)

        requester.keyframeReceived(at: .ms(2550))
        #expect(requester.tick(now: .ms(3100)) == nil)
        #expect(!requester.isWaiting)
        // Later packets do not restart a request once a keyframe was seen.
        requester.packetReceived(at: .ms(3200))
        #expect(requester.tick(now: .ms(3200)) == nil)
    }

    @Test func lossAfterKeyframeStartsWithPLIAgainAndRespectsTheRateLimit() {
        var requester = KeyframeRequester(senderSSRC: 1, mediaSSRC: 2)
        requester.packetReceived(at: .ms(0))
        #expect(requester.tick(now: .ms(0)) == Self.pli)
        requester.keyframeReceived(at: .ms(100))
        requester.frameLost(at: .ms(200))
        #expect(requester.tick(now: .ms(200)) == nil)  // only 200 ms after the last request
        #expect(requester.tick(now: .ms(500)) == Self.pli)
        #expect(requester.tick(now: .ms(1000)) == Self.pli)  // 800 ms into the episode: still PLI
        #expect(requester.tick(now: .ms(1500)) == Self.fir(0))
        requester.frameLost(at: .ms(1600))  // already waiting: changes nothing
        #expect(requester.tick(now: .ms(2000)) == Self.pli)
        #expect(requester.tick(now: .ms(2500)) == Self.fir(1))
        #expect(requester.nextFIRSequence == 2)
        // A new episode starts with PLIs, then FIR first again.
        requester.keyframeReceived(at: .ms(2600))
        requester.frameLost(at: .ms(3000))
        #expect(requester.tick(now: .ms(3000)) == Self.pli)
        #expect(requester.tick(now: .ms(4000)) == Self.fir(2))
        #expect(requester.tick(now: .ms(4500)) == Self.pli)
    }
}
