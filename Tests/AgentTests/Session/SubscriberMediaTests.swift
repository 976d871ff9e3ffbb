import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentWire

/// ``SubscriberMedia`` against a ``PublisherMedia`` over loopback, with no Janus: the answer and
/// its routes, media and data into the sink, the stream timers, the link's handlers, and a new
/// PeerConnection after the link's is closed.
@Suite(.serialized) struct SubscriberMediaTests {
    @Test("the answer routes each accepted section to its feed; frames and data reach the sink")
    func answerRoutesMediaAndData() async throws {
        try await MediaLoopback.run { loopback in
            #expect(loopback.subscriber.peer == nil, "no PeerConnection before the first offer")
            let answer = try await loopback.connect()
            #expect(loopback.subscriber.peer != nil)
            #expect(answer.warnings.isEmpty)
            #expect(answer.routes.map(\.mid) == ["0", "1"])
            #expect(answer.routes.map(\.participantID) == ["alice", "alice"])
            #expect(answer.routes.map(\.kind) == [.audio, .video])
            #expect(answer.routes.map(\.codec) == [.opus, .vp8])
            #expect(answer.routes.map(\.ssrcs) == [[0x1111], [0x2222]])
            #expect(answer.sdp.media.map(\.direction) == ["recvonly", "recvonly", "sendrecv"])

            let session = try await loopback.publisher.startSession(tracks: MediaLoopback.tracks)
            try await loopback.sendAudio(session, count: 30)
            try await pollUntil(timeout: .seconds(10), "alice's audio frames") { loopback.frames(of: "alice", kind: .audio).count >= 20 }
            #expect(loopback.frames(of: "alice", kind: .audio).first?.bytes == [0xFC, 0, 0xAB])
            #expect(loopback.frames(of: "alice", kind: .audio).allSatisfy { $0.codec == .opus })

            await loopback.publisher.waitForDataChannel(timeout: .seconds(10))
            try await loopback.publisher.send(.text("hello subscriber"))
            try await pollUntil(timeout: .seconds(10), "the data message") { loopback.dataTexts.contains("hello subscriber") }

            let counters = try #require(try await loopback.subscriber.counters())
            #expect(counters.rtpIn >= 20 && counters.srtpErrors == 0)
        }
    }

    @Test("a section with a codec we lack is a warning; an inactive one is not; a section without a feed gets no route")
    func warningsAndRoutesFollowTheOffer() async throws {
        try await MediaLoopback.run { loopback in
            let tracks = [
                TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 0x10),
                TrackOffer(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 0x11),
                TrackOffer(mid: "2", kind: .video, codec: .vp8, payloadType: 97, ssrc: 0x12),
                TrackOffer(mid: "3", kind: .audio, codec: .opus, payloadType: 112, ssrc: 0x13),
            ]
            var offer = try SessionDescription.parse(try await loopback.publisher.offer(tracks: tracks, dataChannelLabel: nil).text)
            // mid 1 offers H.265 only; mid 2 is a section the sender emptied.
            offer.media[1].attributes = offer.media[1].attributes.map { attribute in
                attribute.name == "rtpmap" ? SDPAttribute("rtpmap", "96 H265/90000") : attribute
            }
            offer.media[2].attributes = offer.media[2].attributes.map { $0.name == "sendonly" ? SDPAttribute("inactive") : $0 }
            let answer = try await loopback.subscriber.answer(
                offer: offer, feedsByMid: ["0": "alice", "1": "bob", "2": "carol"], dataChannelLabel: nil, handlers: loopback.handlers)
            #expect(answer.routes.contains { $0.mid == "0" && $0.participantID == "alice" && $0.kind == .audio })
            #expect(!answer.routes.contains { $0.mid == "1" }, "rejected")
            #expect(!answer.routes.contains { $0.mid == "2" }, "the sender sends nothing there")
            // The emptied section is kept, answered inactive and bundled (Janus refuses an answer
            // that rejects it, 469); the section with no codec we know is rejected with port 0.
            let held = try #require(answer.sdp.media.first { $0.mid == "2" })
            #expect(held.port == 9 && held.direction == "inactive" && held.formats == ["97"], "\(held)")
            #expect(answer.sdp.media.first { $0.mid == "1" }?.port == 0)
            let bundle = answer.sdp.attributes.first { $0.name == "group" }?.value
            #expect(bundle == "BUNDLE 0 2 3", "\(bundle ?? "no group")")
            #expect(!answer.routes.contains { $0.mid == "3" }, "no feed")
            #expect(answer.warnings.count == 1)
            #expect(answer.warnings.first?.hasPrefix("mid 1: ") == true)
            #expect(answer.warnings.first?.contains("H265") == true)
        }
    }

    @Test("a failure and a lost data transport reach the link's handlers")
    func linkHandlersHearTheConnection() async throws {
        try await MediaLoopback.run { loopback in
            _ = try await loopback.connect()
            try await pollUntil(timeout: .seconds(10), "the subscriber's data channel") {
                let peer = loopback.subscriber.peer
                return (try? await loopback.subscriberLoop.submit { peer?.dataChannelStreamID != nil }) == true
            }
            try await loopback.subscriber.simulateDataTransportLoss()
            #expect(loopback.seen.dataLosses.withLock { $0 } == 1)
            #expect(loopback.seen.failures.withLock { $0 }.isEmpty)
            // The publisher's close_notify fails the subscriber's DTLS.
            await loopback.publisher.close()
            try await pollUntil(timeout: .seconds(10), "the failure") { !loopback.seen.failures.withLock { $0 }.isEmpty }
            #expect(loopback.seen.failures.withLock { $0 } == ["the peer closed DTLS"])
        }
    }

    @Test("closing the link's connection clears the routes; the next offer makes a new PeerConnection")
    func closeConnectionThenANewLink() async throws {
        try await MediaLoopback.run { loopback in
            _ = try await loopback.connect()
            let first = try #require(loopback.subscriber.peer)
            let router = loopback.subscriber.router
            #expect(try await loopback.subscriberLoop.submit { router.statistics().count } == 2)
            loopback.subscriber.closeConnection()
            #expect(loopback.subscriber.peer == nil)
            #expect(try await loopback.subscriber.counters() == nil)
            #expect(try await loopback.subscriberLoop.submit { (router.statistics().count, first.state) } == (0, .closed))

            let second = try PublisherMedia(loop: loopback.publisherLoop, localAddresses: ["127.0.0.1"])
            try await withCleanup {
                let offer = try await second.offer(tracks: MediaLoopback.tracks, dataChannelLabel: nil)
                let answer = try await loopback.subscriber.answer(
                    offer: try SessionDescription.parse(offer.text), feedsByMid: ["0": "bob"], dataChannelLabel: nil,
                    handlers: loopback.handlers)
                let peer = try #require(loopback.subscriber.peer)
                #expect(peer !== first)
                #expect(answer.routes.map(\.participantID) == ["bob"])
            } cleanup: {
                await second.close()
            }
        }
    }

    @Test("the timers report statistics while they run, not before they start")
    func tickingReportsStatistics() async throws {
        try await MediaLoopback.run(statisticsInterval: .milliseconds(100)) { loopback in
            _ = try await loopback.connect()
            let session = try await loopback.publisher.startSession(tracks: MediaLoopback.tracks)
            try await loopback.sendAudio(session, count: 5)
            #expect(loopback.statisticsReports == 0, "no timers before startTicking")
            loopback.subscriber.startTicking()
            try await pollUntil(timeout: .seconds(5), "periodic statistics") { loopback.statisticsReports >= 4 }
        }
    }

    @Test("stopping the timers sends every track's statistics a last time; never started, nothing")
    func stopTickingReportsFinalStatistics() async throws {
        // An hour between reports: any report seen here is the final one.
        try await MediaLoopback.run(statisticsInterval: .seconds(3600)) { loopback in
            _ = try await loopback.connect()
            await loopback.subscriber.stopTicking()
            #expect(loopback.statisticsReports == 0, "the timers never ran")
            loopback.subscriber.startTicking()
            await loopback.subscriber.stopTicking()
            #expect(loopback.statisticsReports == 2, "one per route")
            await loopback.subscriber.stopTicking()
            #expect(loopback.statisticsReports == 2, "stopped once")
        }
    }

    @Test("ticks per statistics report: the ratio, at least one, and no trap for a zero or huge interval")
    func ticksPerReport() {
        #expect(SubscriberMedia.ticksPerReport(tick: .milliseconds(20), statistics: .seconds(1)) == 50)
        #expect(SubscriberMedia.ticksPerReport(tick: .milliseconds(30), statistics: .seconds(1)) == 33)
        #expect(SubscriberMedia.ticksPerReport(tick: .seconds(1), statistics: .milliseconds(20)) == 1)
        #expect(SubscriberMedia.ticksPerReport(tick: .zero, statistics: .seconds(1)) == 1_000_000_000)
        #expect(SubscriberMedia.ticksPerReport(tick: .milliseconds(20), statistics: .zero) == 1)
        #expect(SubscriberMedia.ticksPerReport(tick: .nanoseconds(1), statistics: .seconds(Int64.max)) == Int.max)
    }
}
