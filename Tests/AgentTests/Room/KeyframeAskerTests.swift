import Synchronization
import Testing

@testable import Agent

struct KeyframeAskerTests {
    /// Where the stack is, as an address: a local's.
    @inline(never)
    static func stackAddress() -> UInt {
        var probe = 0
        return withUnsafeMutablePointer(to: &probe) { UInt(bitPattern: $0) }
    }

    /// A closure kept as `Mutex<(() -> Void)?>` gained a thunk on every `withLock { $0 }` read, so
    /// the 5,000th request ran through ~10,000 of them: hundreds of KB deeper in the stack than the
    /// first (and quadratic time, and in the end a stack overflow in a long session).
    @Test("the 5,000th keyframe request runs at the depth of the first")
    func requestsDoNotDeepen() {
        let asker = KeyframeAsker(onKeyframeNeeded: nil)
        let depths = Mutex<[UInt]>([])
        asker.attach { depths.withLock { $0.append(Self.stackAddress()) } }
        for _ in 0..<5_000 { asker.ask(.frameLost) }
        let recorded = depths.withLock { $0 }
        #expect(recorded.count == 5_000)
        guard let first = recorded.first, let last = recorded.last else { return }
        let deeper = first > last ? first - last : 0
        #expect(deeper < 4_096, "the last request ran \(deeper) bytes deeper in the stack than the first")
    }
}
