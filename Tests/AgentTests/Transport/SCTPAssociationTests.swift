import TestSupport
import Testing

@testable import Agent
@testable import AgentTransport

/// Serialized: the second test checks that usrsctp is finished and started again between rounds,
/// which needs no other association alive in the process meanwhile.
@Suite(.serialized) struct SCTPAssociationTests {
    struct Message: Sendable, Equatable {
        let bytes: [UInt8]
        let streamID: UInt16
        let ppid: SCTPPayloadProtocol
    }

    /// Points one association's output at another's input, always through the loop's queue so a
    /// packet is never fed to usrsctp from inside another usrsctp call.
    final class Link: @unchecked Sendable {
        // @unchecked Sendable: `peer` is set and read only on the test's loop.
        var peer: SCTPAssociation?
        var packets = 0
        var largestPacket = 0
    }

    /// One endpoint with inboxes for its events and messages.
    struct Endpoint {
        let association: SCTPAssociation
        let link: Link
        let events = TestInbox<SCTPAssociation.Event>()
        let messages = TestInbox<Message>()

        init(loop: EventLoop) async throws {
            let link = Link()
            let events = events
            let messages = messages
            self.link = link
            association = try await loop.submit {
                try SCTPAssociation(
                    loop: loop,
                    onOutbound: { packet in
                        link.packets += 1
                        link.largestPacket = max(link.largestPacket, packet.count)
                        loop.execute { link.peer?.handleInbound(packet) }
                    },
                    onEvent: { events.post($0) },
                    onMessage: { bytes, streamID, ppid in messages.post(Message(bytes: bytes, streamID: streamID, ppid: ppid)) })
            }
        }
    }

    /// Connects two associations back to back, exchanges a string and a binary message both
    /// ways, checks stream reset, and closes both.
    func runPair(round: Int) async throws {
        let loop = EventLoop(name: "sctp.round\(round)")
        let a = try await Endpoint(loop: loop)
        let b = try await Endpoint(loop: loop)
        let associationA = a.association
        let associationB = b.association
        try await loop.submit {
            a.link.peer = associationB
            b.link.peer = associationA
            // A's INIT reaches B before B connects: B must hold it until its own connect().
            try associationA.connect()
        }
        try await loop.submit { try associationB.connect() }

        let connectedA = try await a.events.first("A connected") { if case .connected = $0 { true } else { false } }
        _ = try await b.events.first("B connected") { if case .connected = $0 { true } else { false } }
        #expect(connectedA == .connected(outboundStreams: 1024, inboundStreams: 1024))

        let text = Message(bytes: Array("hello from A, round \(round) ✓".utf8), streamID: 1, ppid: .string)
        let binary = Message(bytes: (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }, streamID: 3, ppid: .binary)
        let reply = Message(bytes: Array("hello back from B".utf8), streamID: 1, ppid: .string)
        let replyBinary = Message(bytes: [0x00, 0xFF, 0x10, 0x80], streamID: 2, ppid: .binary)
        try await loop.submit {
            try associationA.send(text.bytes, streamID: text.streamID, ppid: text.ppid)
            try associationA.send(binary.bytes, streamID: binary.streamID, ppid: binary.ppid)
            try associationB.send(reply.bytes, streamID: reply.streamID, ppid: reply.ppid)
            try associationB.send(replyBinary.bytes, streamID: replyBinary.streamID, ppid: replyBinary.ppid, ordered: false)
        }
        #expect(try await b.messages.first("text at B") { $0.ppid == .string } == text)
        #expect(try await b.messages.first("binary at B") { $0.ppid == .binary } == binary)
        #expect(try await a.messages.first("text at A") { $0.ppid == .string } == reply)
        #expect(try await a.messages.first("binary at A") { $0.ppid == .binary } == replyBinary)
        #expect(Array(b.messages.items.prefix(2)) == [text, binary])
        #expect(a.messages.items.count == 2)

        // A message far larger than a packet: fragmented by SCTP, possibly handed up in pieces
        // (partial delivery), and reassembled before the handler sees it.
        let large = Message(bytes: (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }, streamID: 7, ppid: .binary)
        try await loop.submit { try associationA.send(large.bytes, streamID: large.streamID, ppid: large.ppid) }
        #expect(try await b.messages.first("large at B") { $0.streamID == 7 } == large)

        // Closing a data channel resets its outgoing stream; the peer hears about it.
        try await loop.submit { try associationA.resetStreams([3]) }
        _ = try await b.events.first("B sees stream 3 reset") { $0 == .incomingStreamsReset([3]) }

        let errors = try await loop.submit { () -> [SCTPError?] in
            func attempt(_ body: () throws -> Void) -> SCTPError? {
                do { try body(); return nil } catch { return error as? SCTPError }
            }
            return [
                attempt { try associationA.send([], streamID: 1, ppid: .string) },
                attempt { try associationA.connect() },
            ]
        }
        #expect(errors == [.emptyMessage, .alreadyConnecting])

        try await loop.submit {
            associationA.close()
            associationA.close()  // idempotent
        }
        // A's ABORT reaches B, which reports the loss.
        _ = try await b.events.first("B sees A gone") { $0 == .closed(.communicationLost) }
        let afterClose = try await loop.submit { () -> SCTPError? in
            associationB.close()
            associationB.close()
            do { try associationA.send([1], streamID: 1, ppid: .binary); return nil } catch { return error as? SCTPError }
        }
        #expect(afterClose == .closed)
        #expect(a.link.packets > 4 && b.link.packets > 4)
        // The 3000-byte message was split to fit the fixed 1200-byte packet size.
        #expect(a.link.largestPacket > 1100 && a.link.largestPacket <= 1200, "largest \(a.link.largestPacket)")
        #expect(associationB.droppedBeforeConnect == 0)
        #expect(associationA.droppedOutboundPackets == 0 && associationB.droppedInboundMessages == 0)
        loop.shutdown()
    }

    @Test func twoAssociationsExchangeMessagesTwiceWithStackRestart() async throws {
        // Nobody else may hold the process-wide usrsctp while this counts its starts and finishes.
        try await SharedResourceLock.usrsctp.withExclusive { try await checkStackRestarts() }
    }

    private func checkStackRestarts() async throws {
        // Tests that close their connections hand usrsctp back a moment later: start from an
        // idle stack (a user left for good would be a leak, and fails here).
        try await pollUntil(timeout: .seconds(30), "usrsctp idle before counting restarts") { await SCTPStack.settledStatistics().users == 0 }
        let before = await SCTPStack.settledStatistics()
        try await runPair(round: 1)
        let afterFirst = await SCTPStack.settledStatistics()
        try await runPair(round: 2)
        let afterSecond = await SCTPStack.settledStatistics()

        // Each round started usrsctp and finished it again once both associations had closed.
        #expect(afterFirst.users == 0 && afterSecond.users == 0)
        #expect(afterFirst.initializations == before.initializations + 1)
        #expect(afterSecond.initializations == before.initializations + 2)
        #expect(afterSecond.finishes == before.finishes + 2)
        #expect(afterSecond.finishGiveUps == 0)
        #expect(!afterSecond.isInitialized)
    }
}
