import CAgentShims
import CUsrSCTP
import Foundation
import Synchronization

/// The process-wide usrsctp instance, shared by every ``SCTPAssociation``.
///
/// usrsctp keeps global state (one `usrsctp_init` per process, timer thread, address list), and
/// tests run in parallel in one process, so init and finish are reference counted. Each
/// association registers an AF_CONN "address", which here is a small integer id rather than a
/// pointer: usrsctp may still call `conn_output` from its timer thread for an id whose association
/// is gone, and a lookup that finds nothing is safe where a dangling pointer would not be.
enum SCTPStack {
    struct Statistics: Sendable, Equatable {
        var users = 0
        var initializations = 0
        var finishes = 0
        /// usrsctp_finish kept refusing (sockets still alive) and the stack was left initialized.
        var finishGiveUps = 0
        var isInitialized = false
    }

    /// Serializes init and finish; finish may retry for a while and acquire must wait for it.
    private static let lifecycle = DispatchQueue(label: "agentd.usrsctp.lifecycle")
    private static let statistics = Mutex(Statistics())
    private static let registry = Mutex(Registry())

    private struct Registry {
        var nextID: UInt = 1
        var mailboxes: [UInt: SCTPMailbox] = [:]
    }

    /// Starts usrsctp if this is the first user.
    static func acquire() {
        lifecycle.sync {
            let needsInit = statistics.withLock { stats -> Bool in
                stats.users += 1
                return !stats.isInitialized
            }
            guard needsInit else { return }
            let debug = ProcessInfo.processInfo.environment["AGENTD_SCTP_DEBUG"] != nil
            agent_sctp_init(sctpConnOutput, debug ? 1 : 0)
            // WebRTC peers do not negotiate ECN inside DTLS.
            usrsctp_sysctl_set_sctp_ecn_enable(0)
            statistics.withLock {
                $0.isInitialized = true
                $0.initializations += 1
            }
        }
    }

    /// Drops one user; the last one finishes usrsctp, off the caller's thread.
    static func release() {
        lifecycle.async {
            let isLast = statistics.withLock { stats -> Bool in
                stats.users -= 1
                return stats.users == 0 && stats.isInitialized
            }
            guard isLast else { return }
            // usrsctp frees aborted sockets from its timer thread, so finish can refuse for a
            // short while after the last close. It has no completion callback to wait on.
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                if usrsctp_finish() == 0 {
                    statistics.withLock {
                        $0.isInitialized = false
                        $0.finishes += 1
                    }
                    return
                }
                usleep(10_000)
            }
            statistics.withLock { $0.finishGiveUps += 1 }
        }
    }

    /// Waits until pending init/finish work is done, then reports the counters (for tests).
    /// A finish may retry for seconds: the caller waits without holding its thread.
    static func settledStatistics() async -> Statistics {
        await withCheckedContinuation { continuation in
            lifecycle.async { continuation.resume(returning: statistics.withLock { $0 }) }
        }
    }

    static func register(_ mailbox: SCTPMailbox) -> UInt {
        registry.withLock { registry in
            let id = registry.nextID
            registry.nextID += 1
            registry.mailboxes[id] = mailbox
            return id
        }
    }

    static func unregister(_ id: UInt) {
        _ = registry.withLock { $0.mailboxes.removeValue(forKey: id) }
    }

    static func mailbox(for id: UInt) -> SCTPMailbox? {
        registry.withLock { $0.mailboxes[id] }
    }

    static func mailbox(forAddress address: UnsafeMutableRawPointer?) -> SCTPMailbox? {
        guard let address else { return nil }
        return mailbox(for: UInt(bitPattern: address))
    }
}

/// usrsctp hands every outgoing SCTP packet here, from whatever thread it is on (the caller of
/// conninput/sendv/connect, or its timer thread). We only copy and enqueue.
private func sctpConnOutput(
    _ address: UnsafeMutableRawPointer?, _ buffer: UnsafeMutableRawPointer?, _ length: Int,
    _ tos: UInt8, _ setDF: UInt8
) -> Int32 {
    guard let buffer, let mailbox = SCTPStack.mailbox(forAddress: address) else { return 0 }
    mailbox.enqueueOutbound(Array(UnsafeRawBufferPointer(start: buffer, count: length)))
    return 0
}
