import JobQueue
import Testing

@Suite("RedisURL")
struct RedisURLTests {
    @Test("host, port, password, user and database are read; the display hides the password")
    func parsesTheForms() throws {
        let plain = try #require(RedisURL("redis://127.0.0.1:6380/2"))
        #expect(plain == RedisURL(host: "127.0.0.1", port: 6380, database: 2))
        #expect(RedisURL("redis://localhost") == RedisURL(host: "localhost"))
        let secret = try #require(RedisURL("redis://agent:s3cr:et@10.0.0.5:7000"))
        #expect(secret.username == "agent" && secret.password == "s3cr:et" && secret.port == 7000)
        #expect(secret.display == "redis://agent:***@10.0.0.5:7000/0")
        #expect(!secret.display.contains("s3cr"))
        #expect(RedisURL("redis://:pw@h")?.password == "pw" && RedisURL("redis://:pw@h")?.username == nil)
    }

    @Test("anything else is nil", arguments: [
        "", "127.0.0.1:6379", "http://h:1", "redis://", "redis://h:0", "redis://h:65536", "redis://h:x", "redis://h/1001",
        "redis://h/-1", "redis://h/a", "redis://a b", "redis://h:1/0/extra", "redis://" + String(repeating: "h", count: 1100),
    ])
    func refusesTheRest(_ text: String) {
        #expect(RedisURL(text) == nil, "\(text.prefix(40))")
    }
}
