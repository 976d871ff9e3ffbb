import Agent

extension EventLoop {
    /// Returns once the loop thread is inside `g_main_loop_run`.
    ///
    /// Works around a race in `EventLoop`: `init` returns before the thread enters
    /// `g_main_loop_run`, so a `shutdown()` that comes first calls `g_main_loop_quit` on a loop
    /// that is not running yet, the thread then runs forever and `shutdown()` never returns.
    /// A `sync` round trip can only complete from inside the running loop.
    static func started(name: String) -> EventLoop {
        let loop = EventLoop(name: name)
        _ = try? loop.sync {}
        return loop
    }
}
