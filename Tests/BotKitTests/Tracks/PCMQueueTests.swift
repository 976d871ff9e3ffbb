import Testing

@testable import BotKit

/// The queue as a plain value, with strings for waiters: what goes in comes out in order, a full
/// ring holds pushes back in push order, and withdrawing or clearing hands back the right waiters.
@Suite struct PCMQueueTests {
    static func ramp(_ range: Range<Int>) -> [Float] { range.map(Float.init) }

    static func take(_ queue: inout PCMQueue<String>, _ count: Int) -> (samples: [Float], taken: Int, completed: [String]) {
        var frame = [Float](repeating: -1, count: count)
        let (taken, completed) = frame.withUnsafeMutableBufferPointer { queue.take(into: $0) }
        return (frame, taken, completed)
    }

    @Test func samplesComeOutInOrderAcrossTheRingsEnd() {
        var queue = PCMQueue<String>(capacity: 10)
        let firstFits = queue.appendIfRoom(Self.ramp(0..<7))
        #expect(firstFits)
        #expect(Self.take(&queue, 4).samples == Self.ramp(0..<4))
        // 3 left at indices 4...6; 6 more wrap around the end of the 10-sample ring.
        let wrappedFits = queue.appendIfRoom(Self.ramp(7..<13))
        #expect(wrappedFits)
        #expect(queue.count == 9)
        let overflowFits = queue.appendIfRoom(Self.ramp(13..<15))
        #expect(overflowFits == false, "all or nothing")
        let out = Self.take(&queue, 12)
        #expect(out.taken == 9)
        #expect(out.samples == Self.ramp(4..<13) + [0, 0, 0], "the short frame is padded with zeros")
    }

    @Test func pushesThatDoNotFitWaitInOrder() {
        var queue = PCMQueue<String>(capacity: 4)
        let first = queue.append(Self.ramp(0..<6), id: 1, waiter: "first")
        let second = queue.append(Self.ramp(6..<8), id: 2, waiter: "second")
        #expect(first == nil && second == nil, "both wait")
        #expect(queue.waitingCount == 2)
        let jumped = queue.appendIfRoom([])
        #expect(jumped == false, "nothing jumps the line")

        var out = Self.take(&queue, 3)
        #expect(out.samples == Self.ramp(0..<3))
        #expect(out.completed == ["first"], "the rest of the first push fit into the freed room")
        out = Self.take(&queue, 3)
        #expect(out.samples == Self.ramp(3..<6))
        #expect(out.completed == ["second"])
        out = Self.take(&queue, 3)
        #expect(out.samples == Self.ramp(6..<8) + [0])
        #expect(queue.count == 0 && queue.waitingCount == 0)
        let fits = queue.append(Self.ramp(0..<2), id: 3, waiter: "fits")
        #expect(fits == "fits", "everything went in: resume at once")
    }

    @Test func cancelWithdrawsOnlyThatPushesRest() {
        var queue = PCMQueue<String>(capacity: 4)
        _ = queue.append(Self.ramp(0..<6), id: 1, waiter: "first")
        _ = queue.append(Self.ramp(6..<8), id: 2, waiter: "second")
        let withdrawn = queue.cancel(id: 1)
        let again = queue.cancel(id: 1)
        #expect(withdrawn == "first")
        #expect(again == nil)
        let out = Self.take(&queue, 6)
        #expect(out.samples == Self.ramp(0..<4) + [0, 0], "what was queued stays; the withdrawn rest never plays")
        #expect(out.completed == ["second"])
        #expect(Self.take(&queue, 2).samples == Self.ramp(6..<8))
    }

    @Test func removeAllCountsWhatWentAndReturnsEveryWaiter() {
        var queue = PCMQueue<String>(capacity: 4)
        _ = queue.append(Self.ramp(0..<6), id: 1, waiter: "first")
        _ = queue.append(Self.ramp(6..<9), id: 2, waiter: "second")
        let (dropped, waiters) = queue.removeAll()
        #expect(dropped == 9)
        #expect(waiters == ["first", "second"])
        #expect(queue.count == 0 && queue.room == 4)
        #expect(Self.take(&queue, 2).taken == 0)
    }
}
