import Foundation
import Synchronization

/// The bounded hand-over from usrsctp's callbacks (any thread, possibly inside usrsctp with its
/// locks held) to the association's loop.
///
/// Callbacks only append here; the loop drains later, outside usrsctp. That is the rule from
/// LAB.md: never call back into usrsctp from its own callback. Both queues are bounded and count
/// what they drop: a dropped outbound packet is retransmitted by SCTP, a dropped inbound message
/// is lost, so the inbound bound is generous.
final class SCTPMailbox: Sendable {
    enum Inbound: Sendable {
        case data(bytes: [UInt8], streamID: UInt16, ppid: UInt32, endOfRecord: Bool)
        case notification([UInt8])
    }

    struct Drops: Sendable, Equatable {
        var outboundPackets = 0
        var inboundMessages = 0
    }

    private struct State {
        var outbound: [[UInt8]] = []
        var inbound: [Inbound] = []
        var drainScheduled = false
        var drops = Drops()
    }

    static let outboundLimit = 1024
    static let inboundLimit = 8192

    private let state = Mutex(State())
    private let loop: EventLoop
    private let drain: @Sendable () -> Void

    /// `drain` runs on `loop` after something was enqueued.
    init(loop: EventLoop, drain: @escaping @Sendable () -> Void) {
        self.loop = loop
        self.drain = drain
    }

    var drops: Drops { state.withLock { $0.drops } }

    func enqueueOutbound(_ packet: [UInt8]) {
        let schedule = state.withLock { state -> Bool in
            guard state.outbound.count < Self.outboundLimit else {
                state.drops.outboundPackets += 1
                return false
            }
            state.outbound.append(packet)
            return scheduleIfNeeded(&state)
        }
        if schedule { loop.execute(drain) }
    }

    func enqueueInbound(_ item: Inbound) {
        let schedule = state.withLock { state -> Bool in
            guard state.inbound.count < Self.inboundLimit else {
                state.drops.inboundMessages += 1
                return false
            }
            state.inbound.append(item)
            return scheduleIfNeeded(&state)
        }
        if schedule { loop.execute(drain) }
    }

    /// Takes everything queued so far. Called on the loop by the drain.
    func take() -> (outbound: [[UInt8]], inbound: [Inbound]) {
        state.withLock { state in
            defer {
                state.outbound.removeAll()
                state.inbound.removeAll()
                state.drainScheduled = false
            }
            return (state.outbound, state.inbound)
        }
    }

    private func scheduleIfNeeded(_ state: inout State) -> Bool {
        guard !state.drainScheduled else { return false }
        state.drainScheduled = true
        return true
    }
}
