import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import AgentSession
@testable import AgentTransport

/// ``PublisherMedia`` against a ``SubscriberMedia`` over loopback, with no Janus: offer, answer,
/// connection, session, send-side statistics, data, and the outcomes a platform maps to its own
/// errors.
@Suite(.serialized) struct PublisherMediaTests {
    @Test("offer, accept, connect, publish: statistics per mid count what was sent")
    func publishesAndCounts() async throws {
        try await MediaLoopback.run { loopback in
            #expect(await loopback.publisher.statistics().isEmpty, "no session yet")
            _ = try await loopback.connect()
            let session = try await loopback.publisher.startSession(tracks: MediaLoopback.tracks)
            #expect(session.peer === loopback.publisher.peer)
            try await loopback.sendAudio(session, count: 10)
            let statistics = await loopback.publisher.statistics()
            #expect(Set(statistics.keys) == ["0", "1"])
            #expect(statistics["0"]?.frames == 10 && statistics["0"]?.packets == 10)
            #expect(statistics["1"]?.packets == 0)
            try await pollUntil(timeout: .seconds(10), "the frames at the subscriber") {
                loopback.frames(of: "alice", kind: .audio).count >= 10
            }
            await loopback.publisher.stopSession()
            await loopback.publisher.stopSession()
        }
    }

    @Test("data sent once the channel is open reaches the subscriber; before the connection, send throws")
    func dataChannel() async throws {
        try await MediaLoopback.run { loopback in
            await #expect(throws: PeerConnectionError.notConnected) { try await loopback.publisher.send(.text("too early")) }
            _ = try await loopback.connect()
            await loopback.publisher.waitForDataChannel(timeout: .seconds(10))
            try await loopback.publisher.send(.text("hello"))
            try await pollUntil(timeout: .seconds(10), "the message") { loopback.dataTexts == ["hello"] }
        }
    }

    @Test("no answer: waitConnected times out instead of throwing; close is idempotent and awaited on the loop")
    func waitConnectedTimesOut() async throws {
        let loop = EventLoop(name: "test.pubmedia.alone")
        defer { loop.shutdown() }
        let media = try PublisherMedia(loop: loop, localAddresses: ["127.0.0.1"])
        _ = try await media.offer(tracks: MediaLoopback.tracks, dataChannelLabel: nil)
        let started = ContinuousClock.now
        #expect(try await media.waitConnected(timeout: .milliseconds(200)) == .timedOut)
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        await media.waitForDataChannel(timeout: .milliseconds(50))
        await media.close()
        let peer = media.peer
        #expect(try await loop.submit { peer.state } == .closed, "closed by the time close() returns")
        await media.close()
    }

    @Test("a connection that fails reports why")
    func waitConnectedReportsFailure() async throws {
        try await MediaLoopback.run { loopback in
            _ = try await loopback.connect()
            // The subscriber's close_notify fails the publisher's DTLS.
            loopback.subscriber.closeConnection()
            try await pollUntil(timeout: .seconds(10), "the publisher's failure") {
                let peer = loopback.publisher.peer
                return (try? await loopback.publisherLoop.submit { peer.state }) != .connected
            }
            #expect(try await loopback.publisher.waitConnected(timeout: .seconds(1)) == .failed("the peer closed DTLS"))
        }
    }
}
