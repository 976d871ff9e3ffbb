import JobQueue

extension FuzzTarget {
    /// What a Redis server (or anything answering on its port) sends back, through hiredis's
    /// parser with our reply callbacks; every array that reads as a hash goes through
    /// ``QueuedJob/init(fields:)`` too (a job hash someone else wrote).
    public static let redisReply = FuzzTarget(name: "redis-reply", summary: "RESP replies (hiredis + RedisReplyBuilder) and QueuedJob(fields:)",
                                              maxInputLength: 65536) { bytes in
        let parsed = RedisReplyBuilder.parse(Array(bytes))
        FuzzCheck.expect(parsed.replies.count <= bytes.count, "\(parsed.replies.count) replies from \(bytes.count) bytes")
        for reply in parsed.replies {
            checkRedisValue(reply, depth: 0, bytes: bytes.count)
            if let fields = reply.fields, let job = try? QueuedJob(fields: fields) {
                FuzzCheck.expect(JobID.isValid(job.id), "a job with an invalid id: \(job.id.prefix(80))")
            }
        }
    }

    private static func checkRedisValue(_ value: RedisValue, depth: Int, bytes: Int) {
        FuzzCheck.expect(depth <= 8, "a reply nested \(depth) deep")
        switch value {
        case .bulk(let data): FuzzCheck.expect(data.count <= bytes, "a string longer than the input")
        case .array(let items):
            FuzzCheck.expect(items.count <= bytes, "an array of \(items.count) from \(bytes) bytes")
            for item in items { checkRedisValue(item, depth: depth + 1, bytes: bytes) }
        default: break
        }
    }
}
