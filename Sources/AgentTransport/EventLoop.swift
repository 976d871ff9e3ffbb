import CNice
import Foundation
import Glibc
import Synchronization

/// A thread that runs one GLib `GMainContext` for its whole life.
///
/// libnice and libsoup call back on the thread whose context they were created with, so every
/// transport object (ICE agent, WebSocket, SCTP association fed by them) belongs to exactly one
/// loop and is only touched there. Other threads hand work over with ``execute(_:)``.
public final class EventLoop: @unchecked Sendable {
    // @unchecked Sendable: `context` and `mainLoop` are GLib objects that are themselves
    // thread-safe for the calls made here (invoke, wakeup, quit); `thread` is set once in init and
    // only read afterwards; `state` is a Mutex; `owner` is atomic.
    public let context: OpaquePointer
    private let mainLoop: OpaquePointer
    private var thread: Thread?
    /// The loop thread's identity while it runs, for the confinement check.
    private let owner = LoopOwner()
    private let state = Mutex<State>(.running)
    private let stopped = DispatchSemaphore(value: 0)
    public let name: String

    private enum State { case running, stopping, stopped }

    public init(name: String = "agentd.loop") {
        self.name = name
        context = g_main_context_new()
        mainLoop = g_main_loop_new(context, 0)
        let ready = DispatchSemaphore(value: 0)
        let handles = LoopHandles(context: context, mainLoop: mainLoop)
        let stopped = self.stopped
        let owner = self.owner
        let thread = Thread {
            // Before `ready`: init returns only after this store, so every later reader sees it.
            owner.thread.store(pthread_self(), ordering: .releasing)
            // On the thread itself: a name given to Thread before start never reaches the kernel.
            ThreadName.setCurrent(name)
            g_main_context_push_thread_default(handles.context)
            // Signal readiness from inside the running loop: a quit issued before
            // g_main_loop_run starts would be lost, and shutdown() would wait forever.
            let readySource = g_idle_source_new()
            g_source_set_callback(
                readySource,
                { data in
                    Unmanaged<DispatchSemaphore>.fromOpaque(data!).takeRetainedValue().signal()
                    return 0  // G_SOURCE_REMOVE
                },
                Unmanaged.passRetained(ready).toOpaque(), nil)
            g_source_attach(readySource, handles.context)
            g_source_unref(readySource)
            g_main_loop_run(handles.mainLoop)
            g_main_context_pop_thread_default(handles.context)
            // A finished thread's id may be reused by a new thread, which must not pass for the loop.
            owner.thread.store(0, ordering: .releasing)
            stopped.signal()
        }
        self.thread = thread
        thread.start()
        ready.wait()
    }

    deinit {
        shutdown()
        g_main_loop_unref(mainLoop)
        g_main_context_unref(context)
    }

    /// True when called on this loop's thread (while the loop runs).
    ///
    /// A thread-identity compare (`pthread_self()` against the loop thread's, an atomic load) that
    /// takes no lock, unlike `g_main_context_is_owner`. `agentd-loopcheck bench` (release, 2-core
    /// Debian 12 VM) measured about 10.5 ns per `assertInLoop` call from another module, call
    /// overhead included, against about 10 ns for the GLib test: noise beside one packet's SRTP
    /// work, so it stays on in release builds.
    public var inLoop: Bool {
        // pthread_t is the thread's descriptor address on Linux: equal means the same thread.
        pthread_self() == owner.thread.load(ordering: .acquiring)
    }

    /// Traps when called off the loop, in release builds too (as swift-nio's
    /// `preconditionInEventLoop`): transport objects call this on entry to every method that
    /// touches their C state, and their `@unchecked Sendable` rests on it. A violation is a
    /// programming error, never input, so stopping the process is right; a release build that
    /// went on would race on libnice's, OpenSSL's or usrsctp's state instead.
    @inline(__always)
    public func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        if !inLoop { confinementViolated(file: file, line: line) }
    }

    @inline(never)
    private func confinementViolated(file: StaticString, line: UInt) -> Never {
        // fatalError (not precondition): its message is printed in release builds too.
        fatalError("\(name): transport state touched off its loop (thread \(Thread.current.name ?? "unnamed"))", file: file, line: line)
    }

    /// Runs `work` on the loop thread, soon. Safe from any thread, including the loop itself.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(WorkBox(work)).toOpaque()
        let source = g_idle_source_new()
        g_source_set_priority(source, G_PRIORITY_DEFAULT)
        g_source_set_callback(
            source,
            { data in
                let work = Unmanaged<WorkBox>.fromOpaque(data!).takeRetainedValue()
                work.run()
                return 0  // G_SOURCE_REMOVE
            },
            box,
            nil
        )
        g_source_attach(source, context)
        g_source_unref(source)
    }

    /// Runs `work` on the loop and waits for its result. Must not be called from the loop itself.
    public func sync<T: Sendable>(_ work: @escaping @Sendable () throws -> T) throws -> T {
        precondition(!inLoop, "\(name): sync called on its own loop would deadlock")
        let result = Mutex<Result<T, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        execute {
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Runs `work` on the loop and resumes the caller with its result.
    /// - Throws: ``Stopped`` when the loop was shut down already (work would never run), or what
    ///   `work` throws.
    public func submit<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard state.withLock({ $0 == .running }) else { throw Stopped(name: name) }
        return try await withCheckedThrowingContinuation { continuation in
            execute { continuation.resume(with: Result { try work() }) }
        }
    }

    /// The loop no longer runs work: ``shutdown()`` came first.
    public struct Stopped: Error, CustomStringConvertible {
        public let name: String
        public var description: String { "event loop \(name) is shut down" }
    }

    /// Stops the loop thread and waits for it to finish. Idempotent.
    public func shutdown() {
        let shouldStop = state.withLock { state -> Bool in
            guard state == .running else { return false }
            state = .stopping
            return true
        }
        guard shouldStop else { return }
        // g_main_loop_quit is thread-safe and wakes the context; a callback in flight finishes first.
        g_main_loop_quit(mainLoop)
        if !inLoop { stopped.wait() }
        state.withLock { $0 = .stopped }
    }
}

/// The loop's GLib pointers, handed to its thread. GLib's main loop and context are thread-safe
/// for run/push/pop/quit, which is all the thread does with them.
private struct LoopHandles: @unchecked Sendable {
    let context: OpaquePointer
    let mainLoop: OpaquePointer
}

/// Which thread runs the loop (0 before it starts and after it ends).
private final class LoopOwner: Sendable {
    let thread = Atomic<pthread_t>(0)
}

/// Boxes a closure so it can cross the C callback boundary as an opaque pointer.
private final class WorkBox {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
