import CHiredis
import Glibc

/// One blocking connection to Redis over hiredis, with a connect timeout and a read/write
/// timeout on every command. Not thread-safe: ``RedisClient`` confines it to its queue.
///
/// Once a command fails on the connection (I/O, timeout, a reply breaking a limit), the
/// connection is ``isBroken`` and is not used again.
final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>
    private(set) var isBroken = false

    /// Connects, authenticates and selects the database, within `timeout` for each step.
    init(_ url: RedisURL, timeout: Duration) throws(RedisError) {
        guard let context = redisConnectWithTimeout(url.host, Int32(clamping: url.port), Self.timeval(timeout)) else {
            throw .unavailable("no memory for a connection")
        }
        // Checked before `self.context` is set: a throw after that runs deinit, which frees it.
        if context.pointee.err != 0 {
            let reason = Self.errorText(context)
            redisFree(context)
            throw .unavailable("cannot connect to \(url.host):\(url.port): \(reason)")
        }
        self.context = context
        context.pointee.reader.pointee.fn = RedisReplyBuilder.functions
        _ = redisSetTimeout(context, Self.timeval(timeout))
        if let password = url.password {
            _ = try command(url.username.map { ["AUTH", $0, password] } ?? ["AUTH", password])
        }
        if url.database != 0 {
            _ = try command(["SELECT", String(url.database)])
        }
    }

    deinit {
        redisFree(context)
    }

    /// Sends a command and waits for its reply. An error reply throws ``RedisError/command(_:)``
    /// (the connection stays usable); a failed connection throws ``RedisError/unavailable(_:)``.
    func command(_ arguments: [String]) throws(RedisError) -> RedisValue {
        guard !isBroken else { throw .unavailable("the connection broke") }
        var storage: [UInt8] = []
        var offsets: [Int] = []
        var lengths: [Int] = []
        for argument in arguments {
            offsets.append(storage.count)
            storage.append(contentsOf: argument.utf8)
            lengths.append(storage.count - offsets[offsets.count - 1])
        }
        storage.append(0)  // a valid base address even when every argument is empty
        let object: UnsafeMutableRawPointer? = storage.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars -> UnsafeMutableRawPointer? in
                guard let base = chars.baseAddress else { return nil }
                var pointers = offsets.map { Optional(base + $0) as UnsafePointer<CChar>? }
                return pointers.withUnsafeMutableBufferPointer { argv in
                    lengths.withUnsafeBufferPointer { argvlen in
                        redisCommandArgv(context, Int32(clamping: arguments.count), argv.baseAddress, argvlen.baseAddress)
                    }
                }
            }
        }
        guard let object else {
            isBroken = true
            let reason = Self.errorText(context)
            if context.pointee.err == REDIS_ERR_OOM { throw .replyTooLarge(reason) }
            throw .unavailable(reason.isEmpty ? "the connection failed" : reason)
        }
        let value = RedisReplyBuilder.take(object)
        if case .error(let line) = value { throw .command(line) }
        return value
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(max(0, seconds)), tv_usec: Int(max(0, attoseconds / 1_000_000_000_000)))
    }
}
