import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession

@Suite struct DataChannelRegistryTests {
    @Test func openAckAndMessagesBetweenTwoEnds() throws {
        var client = DataChannelRegistry(isDTLSClient: true)
        var server = DataChannelRegistry(isDTLSClient: false)

        let (streamID, open) = try client.open(label: "JanusDataChannel")
        #expect(streamID == 0)
        #expect(open.ppid == .dcep && open.bytes.first == 0x03)

        let (replies, serverEvents) = server.receive(open.bytes, streamID: open.streamID, ppid: open.ppid)
        #expect(serverEvents == [.opened(streamID: 0, label: "JanusDataChannel", byPeer: true)])
        #expect(replies == [DataChannelRegistry.Outgoing(bytes: [0x02], streamID: 0, ppid: .dcep)])

        let (_, clientEvents) = client.receive(replies[0].bytes, streamID: 0, ppid: .dcep)
        #expect(clientEvents == [.opened(streamID: 0, label: "JanusDataChannel", byPeer: false)])
        #expect(client.awaitingAck.isEmpty)

        let hello = try client.send(.text("héllo \"world\""), streamID: 0)
        #expect(hello.ppid == .string)
        let (_, received) = server.receive(hello.bytes, streamID: 0, ppid: hello.ppid)
        #expect(received == [.message(DataChannelMessage(streamID: 0, label: "JanusDataChannel", payload: .text("héllo \"world\"")))])

        let empty = try server.send(.binary([]), streamID: 0)
        #expect(empty.ppid == .binaryEmpty && empty.bytes == [0])
        #expect(client.receive(empty.bytes, streamID: 0, ppid: empty.ppid).events
            == [.message(DataChannelMessage(streamID: 0, label: "JanusDataChannel", payload: .binary([])))])
    }

    @Test func streamIDsFollowTheDTLSRole() throws {
        var client = DataChannelRegistry(isDTLSClient: true)
        var server = DataChannelRegistry(isDTLSClient: false)
        #expect(try client.open(label: "a").streamID == 0)
        #expect(try client.open(label: "b").streamID == 2)
        #expect(try server.open(label: "c").streamID == 1)
    }

    @Test func malformedDCEPAndUnknownStreamsAreReported() throws {
        var registry = DataChannelRegistry(isDTLSClient: true)
        let (_, events) = registry.receive([0x03, 0x00], streamID: 1, ppid: .dcep)
        guard case .malformed(1, _)? = events.first else {
            Issue.record("expected malformed, got \(events)")
            return
        }
        #expect(throws: DataChannelRegistry.Error.unknownStream(9)) { try registry.send(.text("x"), streamID: 9) }
        // A stray ACK for nothing we opened is ignored.
        #expect(registry.receive([0x02], streamID: 4, ppid: .dcep).events.isEmpty)
    }
}
