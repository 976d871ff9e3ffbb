@testable import JobQueue
import Testing

/// hiredis's parser with our reply callbacks: RESP bytes in, ``RedisValue``s out, within limits.
@Suite("RedisReplyBuilder")
struct RedisReplyBuilderTests {
    private func parse(_ text: String) -> (replies: [RedisValue], error: String?) {
        RedisReplyBuilder.parse(Array(text.utf8))
    }

    @Test("each RESP2 type, nested arrays, and several replies in one buffer")
    func readsEveryType() {
        let parsed = parse("+OK\r\n-ERR no\r\n:42\r\n$3\r\nabc\r\n$-1\r\n*-1\r\n*2\r\n*1\r\n:1\r\n$0\r\n\r\n")
        #expect(parsed.error == nil)
        #expect(parsed.replies == [
            .status("OK"), .error("ERR no"), .integer(42), .bulk(Array("abc".utf8)), .null, .null,
            .array([.array([.integer(1)]), .bulk([])]),
        ])
    }

    @Test("a reply cut short is no reply yet, however much it declares: nothing is allocated ahead")
    func incompleteRepliesWait() {
        #expect(parse("$1000000000\r\nabc").replies.isEmpty)
        #expect(parse("*3\r\n:1\r\n").replies.isEmpty)
        #expect(parse("*1000000\r\n:1\r\n").error == nil)
    }

    @Test("an array declaring more than the limit, deep nesting and garbage are errors, not crashes")
    func limitsAndGarbage() {
        let huge = parse("*\(RedisReplyBuilder.maximumArrayElements + 1)\r\n")
        #expect(huge.replies.isEmpty && huge.error != nil)
        let deep = parse(String(repeating: "*1\r\n", count: 20) + ":1\r\n")
        #expect(deep.error != nil)
        #expect(parse("?what\r\n").error != nil)
        #expect(parse(":12x\r\n").error != nil || parse(":12x\r\n").replies.count <= 1)
        // A reply before the garbage is still returned.
        let mixed = parse(":7\r\n!\r\n")
        #expect(mixed.replies == [.integer(7)] && mixed.error != nil)
    }

    @Test("fields: a flat field/value array; anything else nil")
    func fields() {
        #expect(RedisValue.array([.bulk(Array("a".utf8)), .bulk(Array("1".utf8))]).fields == ["a": "1"])
        #expect(RedisValue.array([.bulk(Array("a".utf8))]).fields == nil)
        #expect(RedisValue.integer(1).fields == nil)
        #expect(RedisValue.bulk(Array("17".utf8)).integer == 17)
    }
}
