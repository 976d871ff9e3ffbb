import Testing

@testable import Agent
@testable import AgentSession

@Suite struct SendHistoryTests {
    @Test func holdsPacketsAcrossTheWrapUntilOverwrittenOrTooOld() {
        var history = SendHistory(capacity: 10, maxAge: .seconds(1))
        #expect(history.capacity == 16)  // rounded up to a power of two
        for (index, sequence) in [UInt16](arrayLiteral: 65534, 65535, 0, 1).enumerated() {
            history.store([UInt8(index)], sequenceNumber: sequence, sentAt: .ms(Int64(index) * 100))
        }
        #expect(history.packet(sequenceNumber: 65534, now: .ms(1000)) == [0])
        #expect(history.packet(sequenceNumber: 0, now: .ms(1000)) == [2])
        #expect(history.packet(sequenceNumber: 2, now: .ms(1000)) == nil)  // never sent
        #expect(history.packet(sequenceNumber: 65534, now: .ms(1001)) == nil)  // older than 1 s
        #expect(history.packet(sequenceNumber: 1, now: .ms(1001)) == [3])
        // 16 numbers later the slot of 0 holds 16: asking for 0 must not return it.
        history.store([16], sequenceNumber: 16, sentAt: .ms(400))
        #expect(history.packet(sequenceNumber: 0, now: .ms(500)) == nil)
        #expect(history.packet(sequenceNumber: 16, now: .ms(500)) == [16])
    }
}
