import Agent
import Testing

@Suite("JanusMessage")
struct JanusMessageTests {
    @Test("create/attach success carries the new id in data.id")
    func successIDs() throws {
        let message = try JanusMessage(parsing: #"{"janus":"success","transaction":"x","data":{"id":8251647593621428}}"#)
        #expect(message.janus == "success")
        #expect(message.transaction == "x")
        #expect(message.data?["id"]?.integerValue == 8_251_647_593_621_428)
        #expect(message.error == nil)
    }

    @Test("videoroom plugin errors keep their code (426 no such room)")
    func pluginError() throws {
        let message = try JanusMessage(parsing: #"""
            {"janus":"event","session_id":1,"sender":2,"transaction":"j",
             "plugindata":{"plugin":"janus.plugin.videoroom",
               "data":{"videoroom":"event","error_code":426,"error":"No such room (missing-room)"}}}
            """#)
        #expect(message.plugin == "janus.plugin.videoroom")
        #expect(message.pluginError == .plugin(code: 426, reason: "No such room (missing-room)"))
        #expect(message.pluginError?.code == JanusError.Code.noSuchRoom)
    }

    @Test("hostile or malformed JSON throws malformed, never traps", arguments: [
        "", "null", "[]", "42", "\"janus\"", "{", "{\"janus\":5}", "{\"transaction\":\"t\"}",
        "{\"janus\":\"ack\",\"session_id\":\"x\"", String(repeating: "[", count: 100_000),
        "{\"janus\":\"error\"}", "\u{0}\u{1}\u{2}",
    ])
    func malformed(text: String) {
        do {
            let message = try JanusMessage(parsing: text)
            // Only a well-formed object with a string "janus" may decode; an error without
            // details still becomes a typed error.
            #expect(message.janus == "error")
            #expect(message.error == .server(code: 0, reason: "unknown error"))
        } catch let error as JanusError {
            guard case .malformed = error else { Issue.record("unexpected \(error)"); return }
        } catch {
            Issue.record("untyped error \(error)")
        }
    }

    @Test("wrongly typed optional fields are ignored, not fatal")
    func wrongTypes() throws {
        let message = try JanusMessage(parsing: #"{"janus":"event","session_id":"11","sender":[1],"transaction":7,"plugindata":"x"}"#)
        #expect(message.sessionID == nil)
        #expect(message.sender == nil)
        #expect(message.transaction == nil)
        #expect(message.pluginData == nil)
    }

    @Test("VideoRoom events: publishers with streams, unpublished, leaving")
    func videoRoomEvents() throws {
        let publishers = try JSONValue(parsing: #"""
            {"videoroom":"event","room":"r1","publishers":[
              {"id":"pub-1","display":"Alice","streams":[
                {"type":"audio","mindex":0,"mid":"0","codec":"opus"},
                {"type":"video","mindex":1,"mid":"1","codec":"vp8"}]},
              {"display":"no id"}]}
            """#)
        guard case .publishers(let list) = VideoRoomEvent(pluginData: publishers) else {
            Issue.record("not publishers")
            return
        }
        #expect(list.count == 1)
        #expect(list.first?.display == "Alice")
        #expect(list.first?.streams.map(\.type) == ["audio", "video"])
        #expect(list.first?.streams.map(\.codec) == ["opus", "vp8"])
        #expect(list.first?.streams.map(\.mid) == ["0", "1"])

        #expect(VideoRoomEvent(pluginData: ["videoroom": "event", "room": "r1", "unpublished": "pub-1"]) == .unpublished(id: "pub-1"))
        #expect(VideoRoomEvent(pluginData: ["videoroom": "event", "room": "r1", "leaving": "pub-1"]) == .leaving(id: "pub-1", reason: nil))
        #expect(VideoRoomEvent(pluginData: ["videoroom": "event", "leaving": "ok"]) == .other(["videoroom": "event", "leaving": "ok"]))
        #expect(VideoRoomEvent(pluginData: ["videoroom": "event", "leaving": 12345]) == .leaving(id: "12345", reason: nil))
    }
}
