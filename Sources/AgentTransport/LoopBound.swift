/// A value that only one ``EventLoop``'s thread may touch, checked on every access, in release
/// builds too (``EventLoop/assertInLoop(file:line:)``), after swift-nio's `NIOLoopBoundBox`.
///
/// A type whose mutable state lives in one of these is `Sendable` without `@unchecked`: the
/// invariant "touched only on the loop" is enforced by the box, not by a comment.
///
///     let ticks = LoopBound(0, loop: loop)
///     loop.execute { ticks.value += 1 }    // fine
///     ticks.value += 1                     // off the loop: traps
public final class LoopBound<Value>: @unchecked Sendable {
    // @unchecked Sendable: `stored` is reached only through `value` and `withValue`, which trap
    // off `loop`, so only the loop's thread ever touches it; init takes the value `sending`, so
    // the creating thread keeps no other reference to it. deinit releases it wherever the last
    // reference goes, as any Swift value is released.
    public let loop: EventLoop
    private var stored: Value

    public init(_ value: sending Value, loop: EventLoop) {
        self.loop = loop
        stored = value
    }

    /// The value; read and write it only on ``loop``.
    public var value: Value {
        get {
            loop.assertInLoop()
            return stored
        }
        set {
            loop.assertInLoop()
            stored = newValue
        }
    }

    /// Runs `body` with the value in place (one check for several changes); only on ``loop``.
    public func withValue<Result>(file: StaticString = #fileID, line: UInt = #line, _ body: (inout Value) throws -> Result) rethrows -> Result {
        loop.assertInLoop(file: file, line: line)
        return try body(&stored)
    }
}
