import CHiredis

/// Builds ``RedisValue``s from hiredis's reply parser: the reader's object callbacks make a tree
/// of ``Node``s that Swift owns, with limits, in place of hiredis's own reply objects.
///
/// hiredis parses RESP and buffers what the server sends; what a reply *declares* is never
/// allocated ahead: an array's children are appended as they arrive, and a bulk string exists
/// only once its bytes did. A string over ``maximumStringBytes`` or an array declaring more than
/// ``maximumArrayElements`` makes the callback return NULL, which the reader turns into an error
/// (the connection is then dropped). hiredis itself limits nesting (7 levels in 0.14).
public enum RedisReplyBuilder {
    public static let maximumStringBytes = 64 << 20
    public static let maximumArrayElements = 1 << 20

    /// One reply value while it is read; arrays fill in as their elements arrive.
    final class Node {
        let leaf: RedisValue?
        var children: [Node] = []

        init(leaf: RedisValue?) {
            self.leaf = leaf
        }

        var value: RedisValue {
            leaf ?? .array(children.map(\.value))
        }
    }

    /// The callbacks, at a stable address for the reader's `fn` pointer; never freed.
    nonisolated(unsafe) static let functions: UnsafeMutablePointer<redisReplyObjectFunctions> = {
        let functions = UnsafeMutablePointer<redisReplyObjectFunctions>.allocate(capacity: 1)
        functions.initialize(to: redisReplyObjectFunctions(
            createString: { task, bytes, length in
                guard length <= RedisReplyBuilder.maximumStringBytes, let task else { return nil }
                let buffer = bytes.map { UnsafeRawBufferPointer(start: $0, count: length) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
                let value: RedisValue
                switch task.pointee.type {
                case REDIS_REPLY_ERROR: value = .error(String(decoding: buffer, as: UTF8.self))
                case REDIS_REPLY_STATUS: value = .status(String(decoding: buffer, as: UTF8.self))
                default: value = .bulk(Array(buffer))
                }
                return RedisReplyBuilder.attach(Node(leaf: value), to: task)
            },
            createArray: { task, elements in
                guard let task, elements <= RedisReplyBuilder.maximumArrayElements else { return nil }
                return RedisReplyBuilder.attach(Node(leaf: nil), to: task)
            },
            createInteger: { task, value in
                guard let task else { return nil }
                return RedisReplyBuilder.attach(Node(leaf: .integer(Int64(value))), to: task)
            },
            createNil: { task in
                guard let task else { return nil }
                return RedisReplyBuilder.attach(Node(leaf: .null), to: task)
            },
            freeObject: { object in
                guard let object else { return }
                Unmanaged<Node>.fromOpaque(object).release()
            }))
        return functions
    }()

    /// A child goes into its parent's array (which keeps it alive) and is handed to the reader
    /// unretained; a root is handed over retained, and freed by `freeObject` or ``take(_:)``.
    private static func attach(_ node: Node, to task: UnsafePointer<redisReadTask>) -> UnsafeMutableRawPointer {
        if let parent = task.pointee.parent, let parentObject = parent.pointee.obj {
            Unmanaged<Node>.fromOpaque(parentObject).takeUnretainedValue().children.append(node)
            return Unmanaged.passUnretained(node).toOpaque()
        }
        return Unmanaged.passRetained(node).toOpaque()
    }

    /// The value of a root object a reader or `redisCommandArgv` returned, which it frees.
    static func take(_ object: UnsafeMutableRawPointer) -> RedisValue {
        Unmanaged<Node>.fromOpaque(object).takeRetainedValue().value
    }

    /// Every reply in `bytes`, parsed as a connection would (the fuzz target's entry): the
    /// replies complete in them, then an error if the rest is not RESP.
    public static func parse(_ bytes: [UInt8]) -> (replies: [RedisValue], error: String?) {
        guard let reader = redisReaderCreateWithFunctions(functions) else { return ([], "no reader") }
        defer { redisReaderFree(reader) }
        let fed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { redisReaderFeed(reader, $0.baseAddress, $0.count) }
        }
        guard fed == REDIS_OK else { return ([], readerError(reader)) }
        var replies: [RedisValue] = []
        while replies.count < 100_000 {
            var object: UnsafeMutableRawPointer?
            guard redisReaderGetReply(reader, &object) == REDIS_OK else { return (replies, readerError(reader)) }
            guard let object else { break }
            replies.append(take(object))
        }
        return (replies, nil)
    }

    private static func readerError(_ reader: UnsafeMutablePointer<redisReader>) -> String {
        withUnsafeBytes(of: reader.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
