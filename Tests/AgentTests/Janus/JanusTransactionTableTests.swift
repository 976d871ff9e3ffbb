import Agent
import Testing

@Suite("JanusTransactionTable")
struct JanusTransactionTableTests {
    private func message(_ text: String) throws -> JanusMessage { try JanusMessage(parsing: text) }

    @Test("a plugin message: ack keeps waiting, the event with the same transaction is final")
    func asyncPluginReply() throws {
        var table = JanusTransactionTable<String>()
        table.register(transaction: "t1", kind: .message, waiter: "join")
        let ack = try message(#"{"janus":"ack","session_id":11,"transaction":"t1"}"#)
        guard case .ack(let transaction) = table.classify(ack) else { Issue.record("ack not recognised"); return }
        #expect(transaction == "t1")
        #expect(table.contains("t1"))

        let event = try message(#"""
            {"janus":"event","session_id":11,"sender":22,"transaction":"t1",
             "plugindata":{"plugin":"janus.plugin.videoroom",
               "data":{"videoroom":"joined","room":"r1","id":"p1","private_id":7,"publishers":[]}}}
            """#)
        guard case .reply(let waiter, .success(let reply)) = table.classify(event) else {
            Issue.record("event with pending transaction is not the reply")
            return
        }
        #expect(waiter == "join")
        #expect(reply.sender == 22)
        #expect(reply.pluginData?["videoroom"] == "joined")
        #expect(table.count == 0)
    }

    @Test("a synchronous plugin request is answered by success with plugindata")
    func syncPluginReply() throws {
        var table = JanusTransactionTable<Int>()
        table.register(transaction: "t2", kind: .message, waiter: 2)
        let success = try message(#"""
            {"janus":"success","session_id":11,"sender":22,"transaction":"t2",
             "plugindata":{"plugin":"janus.plugin.videoroom","data":{"videoroom":"success","room":"r1","exists":false}}}
            """#)
        guard case .reply(2, .success(let reply)) = table.classify(success) else { Issue.record("not final"); return }
        #expect(reply.pluginData?["exists"] == false)
    }

    @Test("keepalive and trickle are completed by their ack")
    func ackIsFinal() throws {
        var table = JanusTransactionTable<String>()
        table.register(transaction: "k", kind: .keepalive, waiter: "keepalive")
        table.register(transaction: "c", kind: .trickle, waiter: "trickle")
        guard case .reply("keepalive", .success) = table.classify(try message(#"{"janus":"ack","session_id":1,"transaction":"k"}"#))
        else { Issue.record("keepalive ack not final"); return }
        guard case .reply("trickle", .success) = table.classify(try message(#"{"janus":"ack","session_id":1,"transaction":"c"}"#))
        else { Issue.record("trickle ack not final"); return }
        #expect(table.count == 0)
    }

    @Test("a core error keeps its code: 403 unauthorized, 458 no session")
    func coreError() throws {
        var table = JanusTransactionTable<String>()
        table.register(transaction: "c1", kind: .create, waiter: "create")
        let error = try message(#"{"janus":"error","transaction":"c1","error":{"code":403,"reason":"Unauthorized request (wrong or missing secret/token)"}}"#)
        guard case .reply("create", .failure(let failure)) = table.classify(error) else { Issue.record("not a failure"); return }
        #expect(failure == .server(code: 403, reason: "Unauthorized request (wrong or missing secret/token)"))
        #expect(failure.code == JanusError.Code.unauthorized)
    }

    @Test("events without a pending transaction are routed; late replies are stray")
    func eventsAndStrays() throws {
        var table = JanusTransactionTable<String>()
        table.register(transaction: "t9", kind: .message, waiter: "w")
        let publishers = try message(#"""
            {"janus":"event","session_id":11,"sender":22,
             "plugindata":{"plugin":"janus.plugin.videoroom","data":{"videoroom":"event","room":"r1","publishers":[]}}}
            """#)
        guard case .event(let event) = table.classify(publishers) else { Issue.record("not an event"); return }
        #expect(event.sender == 22)
        for kind in ["webrtcup", "media", "hangup", "slowlink", "detached", "timeout"] {
            let text = #"{"janus":"\#(kind)","session_id":11,"sender":22}"#
            guard case .event = table.classify(try message(text)) else { Issue.record("\(kind) not an event"); return }
        }
        // An event carrying the transaction of a non-message request is still just an event.
        table.register(transaction: "a1", kind: .attach, waiter: "attach")
        guard case .event = table.classify(try message(#"{"janus":"event","session_id":11,"transaction":"a1"}"#))
        else { Issue.record("event for attach treated as reply"); return }
        guard case .stray = table.classify(try message(#"{"janus":"success","transaction":"gone","data":{"id":1}}"#))
        else { Issue.record("late success not stray"); return }
        guard case .stray = table.classify(try message(#"{"janus":"ack","session_id":11}"#))
        else { Issue.record("ack without transaction not stray"); return }
        #expect(table.count == 2)
        #expect(table.remove(transaction: "t9") == "w")
        #expect(table.removeAll() == ["attach"])
    }
}
