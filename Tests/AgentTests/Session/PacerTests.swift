import Testing

@testable import Agent
@testable import AgentSession

@Suite struct PacerTests {
    static func packets(_ count: Int, size: Int = 1200, tag: UInt8 = 0) -> [[UInt8]] {
        (0..<count).map { [tag, UInt8($0)] + Array(repeating: 0, count: size - 2) }
    }

    /// Polls every millisecond from 0 to `until` and returns when each packet went.
    static func drain(_ pacer: inout Pacer, until: Int64) -> [(ms: Int64, packet: [UInt8])] {
        var sent: [(ms: Int64, packet: [UInt8])] = []
        for ms in 0...until {
            sent += pacer.poll(now: .ms(ms)).map { (ms, $0) }
        }
        return sent
    }

    @Test func aKeyframeIsSpreadAtThePacingRate() {
        // 4.8 Mbit/s = 600 bytes per ms: a 1200-byte packet every 2 ms after the first burst.
        var pacer = Pacer(configuration: .init(rate: 4_800_000, burst: .milliseconds(2), maxQueueDelay: .milliseconds(100)))
        let frame = Self.packets(10)
        pacer.enqueue(frame, now: .ms(0))
        let sent = Self.drain(&pacer, until: 30)
        #expect(sent.map(\.packet) == frame)
        #expect(sent.map(\.ms) == [0, 1, 3, 5, 7, 9, 11, 13, 15, 17])
        #expect(pacer.counters.packets == 10)
        #expect(pacer.counters.bytes == 12_000)
        #expect(pacer.queuedPackets == 0)
    }

    @Test func theRateRisesSoNoPacketWaitsLongerThanTheMaximumDelay() {
        // 80 kbit/s would take 1.2 s for these 12 kB; the 20 ms cap forces about 4.8 Mbit/s.
        var pacer = Pacer(configuration: .init(rate: 80_000, burst: .milliseconds(5), maxQueueDelay: .milliseconds(20)))
        pacer.enqueue(Self.packets(10), now: .ms(0))
        let sent = Self.drain(&pacer, until: 40)
        #expect(sent.count == 10)
        #expect((sent.last?.ms ?? .max) <= 20)
        // Spread, not one burst at the deadline: at least 6 distinct send times.
        #expect(Set(sent.map(\.ms)).count >= 6)
    }

    @Test func retransmissionsGoFirstAndAFullQueueDropsAndCounts() {
        var pacer = Pacer(configuration: .init(rate: 80_000, burst: .milliseconds(1), maxQueueDelay: .seconds(10), capacity: 4))
        #expect(pacer.enqueue(Self.packets(3, size: 100), now: .ms(0)) == 0)
        #expect(pacer.enqueue(Self.packets(2, size: 100, tag: 9), retransmission: true, now: .ms(0)) == 1)
        #expect(pacer.counters.dropped == 1)
        #expect(pacer.queuedPackets == 4)
        var order: [[UInt8]] = []
        for ms in Int64(0)...200 { order += pacer.poll(now: .ms(ms)) }
        #expect(order.map { Array($0.prefix(2)) } == [[9, 0], [0, 0], [0, 1], [0, 2]])
    }

    @Test func nextSendTimeSaysWhenTheBudgetAllowsThenNextPacket() {
        var pacer = Pacer(configuration: .init(rate: 4_800_000, burst: .milliseconds(2), maxQueueDelay: .seconds(1)))
        #expect(pacer.nextSendTime(now: .ms(0)) == nil)
        pacer.enqueue(Self.packets(3), now: .ms(0))
        #expect(pacer.nextSendTime(now: .ms(0)) == .ms(0))
        #expect(pacer.poll(now: .ms(0)).count == 1)  // budget 1200 → 0
        let next = pacer.nextSendTime(now: .ms(0))
        // One byte of budget at 600 bytes/ms: 1/600 ms, rounded up to whole ns.
        #expect(next == .ms(0) + .nanoseconds(1667))
        #expect(pacer.poll(now: next ?? .ms(0)).count == 1)
        #expect(pacer.poll(now: .ms(1)).isEmpty)  // in debt by ~1199 bytes
    }
}
