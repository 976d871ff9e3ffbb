import Testing

@testable import Agent
@testable import AgentSession
@testable import AgentWire

@Suite struct NACKGeneratorTests {
    static func generator(_ configuration: NACKGenerator.Configuration = .init()) -> NACKGenerator {
        NACKGenerator(senderSSRC: 1, mediaSSRC: 0x1234_5678, configuration: configuration)
    }

    @Test func reorderingWithinToleranceSendsNoNACK() {
        var nack = Self.generator()
        nack.received(10, at: .ms(0))
        nack.received(12, at: .ms(1))
        #expect(nack.missingSequences == [11])
        #expect(nack.tick(now: .ms(10)) == nil)
        #expect(nack.received(11, at: .ms(15)) == false)
        #expect(nack.tick(now: .ms(30)) == nil)
        #expect(nack.counters.nacksSent == 0)
        #expect(nack.counters.reordered == 1)
        #expect(nack.missingSequences.isEmpty)
    }

    @Test func missingPacketIsRequestedRetriedThenGivenUp() {
        // Tolerance 20 ms, RTT 100 ms, 2 retries: requests at 21, 121, 221; lost at 321.
        var nack = Self.generator()
        nack.received(65534, at: .ms(0))
        nack.received(65537, at: .ms(1))  // 65535 and 65536 (wire 0) missing
        #expect(nack.tick(now: .ms(20)) == nil)
        let first = nack.tick(now: .ms(21))
        #expect(first == GenericNACK(senderSSRC: 1, mediaSSRC: 0x1234_5678, lostSequenceNumbers: [65535, 0]))
        #expect(first?.items.map(\.pid) == [65535])
        #expect(first?.items.map(\.bitmask) == [0x0001])
        #expect(nack.tick(now: .ms(120)) == nil)
        #expect(nack.tick(now: .ms(121))?.lostSequenceNumbers == [65535, 0])
        #expect(nack.tick(now: .ms(221))?.lostSequenceNumbers == [65535, 0])
        #expect(nack.tick(now: .ms(320)) == nil)
        #expect(nack.counters.lost == 0)
        #expect(nack.tick(now: .ms(321)) == nil)
        #expect(nack.counters.lost == 2)
        #expect(nack.counters.nacksSent == 3)
        #expect(nack.counters.requests == 6)
        #expect(nack.missingSequences.isEmpty)
    }

    @Test func retransmissionAfterNACKIsARecovery() {
        var nack = Self.generator()
        nack.received(1, at: .ms(0))
        nack.received(3, at: .ms(0))
        #expect(nack.tick(now: .ms(25))?.lostSequenceNumbers == [2])
        #expect(nack.received(2, at: .ms(60)) == true)
        #expect(nack.counters.recovered == 1)
        #expect(nack.tick(now: .ms(200)) == nil)
    }

    @Test func maxAgeEndsRetriesEvenWithRetriesLeft() {
        var nack = Self.generator(.init(maxRetries: 10, maxAge: .milliseconds(250)))
        nack.received(1, at: .ms(0))
        nack.received(3, at: .ms(0))
        #expect(nack.tick(now: .ms(20)) != nil)
        #expect(nack.tick(now: .ms(120)) != nil)
        #expect(nack.tick(now: .ms(220)) != nil)
        #expect(nack.tick(now: .ms(250)) == nil)
        #expect(nack.counters.lost == 1)
    }

    @Test func roundTripTimeSetsTheRetryInterval() {
        var nack = Self.generator()
        nack.updateRoundTripTime(.milliseconds(40))
        nack.received(1, at: .ms(0))
        nack.received(3, at: .ms(0))
        #expect(nack.tick(now: .ms(20)) != nil)
        #expect(nack.tick(now: .ms(59)) == nil)
        #expect(nack.tick(now: .ms(60)) != nil)
        nack.updateRoundTripTime(.milliseconds(1))  // floored at 20 ms
        #expect(nack.retryInterval == .milliseconds(20))
    }

    @Test func hugeGapIsCappedAndCountedLost() {
        var nack = Self.generator(.init(capacity: 256))
        nack.received(100, at: .ms(0))
        nack.received(30_100, at: .ms(1))
        #expect(nack.missingSequences.count == 256)
        #expect(nack.missingSequences.first == 29_844)
        #expect(nack.missingSequences.last == 30_099)
        #expect(nack.counters.lost == 29_999 - 256)
        // More gaps evict the oldest tracked numbers, still counted.
        nack.received(30_102, at: .ms(2))
        #expect(nack.missingSequences.count == 256)
        #expect(nack.missingSequences.first == 29_845)
        #expect(nack.counters.lost == 29_999 - 256 + 1)
    }
}
