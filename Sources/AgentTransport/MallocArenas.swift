import CAgentShims

/// How many malloc arenas glibc may keep for this process.
///
/// glibc gives threads arenas of their own, up to eight per core. agentd's threads hand buffers
/// to one another (a packet read on the transport loop is written out on the recorder's queue,
/// an API answer is built on the executor and sent from the HTTP loop), so every arena ends up
/// holding some long-lived blocks between freed ones, and a long-running process's RSS creeps up
/// although what it holds does not (a 10-participant soak: +0.1 to +0.4 MB a minute with the
/// default, flat with two arenas; LAB.md). Call it first thing, before threads start.
public enum MallocArenas {
    /// The arenas a long-running agentd process keeps.
    public static let daemonDefault = 2

    /// Limits the arenas to `count` (at least 1); false when the allocator refused.
    @discardableResult
    public static func limit(to count: Int) -> Bool {
        agent_malloc_limit_arenas(Int32(clamping: max(1, count))) == 1
    }
}
