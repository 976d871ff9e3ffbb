import Testing

@testable import Agent
@testable import AgentCore

@Suite struct ChannelNameTests {
    @Test(arguments: ["a", "Room_1-x", String(repeating: "z", count: 64), "0"])
    func accepted(_ name: String) {
        #expect(ChannelName.isValid(name))
    }

    @Test(arguments: ["", String(repeating: "z", count: 65), "a b", "ä", "room/1", "room.1", "a\n"])
    func refused(_ name: String) {
        #expect(!ChannelName.isValid(name))
    }

    @Test func serversCompareWithoutCaseAndTrailingSlash() {
        #expect(ChannelKey(server: "ws://10.77.0.2:8188/", room: "r") == ChannelKey(server: "WS://10.77.0.2:8188", room: "r"))
        #expect(ChannelKey(server: "ws://Host:8188/", room: "r") == ChannelKey(server: "ws://host:8188", room: "r"))
        #expect(ChannelKey(server: "ws://host:8188/", room: "r") != ChannelKey(server: "ws://host:8188/", room: "R"))
        #expect(ChannelKey(server: "ws://host:8188/", room: "r") != ChannelKey(server: "ws://host:8189/", room: "r"))
    }
}
