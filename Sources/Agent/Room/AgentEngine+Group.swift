/// An engine on the process's shared ``LoopGroup``.
extension AgentEngine {
    /// An engine whose channels run on one loop of `group`, taken in turn (``LoopGroup/next()``)
    /// now. Callers make one engine per job or bot, so jobs spread over the group's loops as they
    /// start, and a job's channels share a loop as they did on a loop of the job's own.
    /// ``shutdown()`` leaves the engine's channels and never stops the group's loops: the
    /// group's owner does, at the end of the process or the test.
    public init(group: LoopGroup) {
        self.init(loops: [group.next()])
    }
}
