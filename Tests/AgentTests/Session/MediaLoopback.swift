import Foundation
import Synchronization
import TestSupport

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentTransport
@testable import AgentWire

/// A ``PublisherMedia`` and a ``SubscriberMedia`` on two loops over loopback, with no platform
/// between them: the test carries the offer and the answer by hand, as an adapter's signaling
/// would. What reaches the subscriber's sink and its link handlers is kept for polling.
final class MediaLoopback: Sendable {
    static let tracks = [
        TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 0x1111),
        TrackOffer(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 0x2222),
    ]

    let publisherLoop = EventLoop(name: "test.pubmedia")
    let subscriberLoop = EventLoop(name: "test.submedia")
    let publisher: PublisherMedia
    let subscriber: SubscriberMedia
    let seen: Seen

    /// What reached the subscriber's sink and its link handlers.
    final class Seen: Sendable {
        let events = Mutex<[RoomEvent]>([])
        let failures = Mutex<[String]>([])
        let dataLosses = Mutex(0)
    }

    init(statisticsInterval: Duration = .seconds(1)) throws {
        publisher = try PublisherMedia(loop: publisherLoop, localAddresses: ["127.0.0.1"])
        let seen = Seen()
        self.seen = seen
        subscriber = SubscriberMedia(
            loop: subscriberLoop, localAddresses: ["127.0.0.1"], tickInterval: .milliseconds(20),
            statisticsInterval: statisticsInterval, sink: { event in seen.events.withLock { $0.append(event) } })
    }

    /// Runs `body` with a fresh loopback under the shared usrsctp lock, and shuts it down on
    /// every path.
    static func run(statisticsInterval: Duration = .seconds(1), _ body: (MediaLoopback) async throws -> Void) async throws {
        try await SharedResourceLock.usrsctp.withShared {
            let loopback = try MediaLoopback(statisticsInterval: statisticsInterval)
            try await withCleanup { try await body(loopback) } cleanup: { await loopback.shutdown() }
        }
    }

    var handlers: SubscriberMedia.LinkHandlers {
        SubscriberMedia.LinkHandlers(
            onFailure: { [seen] reason in seen.failures.withLock { $0.append(reason) } },
            onDataTransportLost: { [seen] in seen.dataLosses.withLock { $0 += 1 } })
    }

    /// Offer (with a data section), answer naming alice as the feed of every section, routes,
    /// then the answer back to the publisher; returns once the publisher is connected.
    func connect(feedsByMid: [String: String] = ["0": "alice", "1": "alice"]) async throws -> SubscriberMedia.Answer {
        let offer = try await publisher.offer(tracks: Self.tracks, dataChannelLabel: "from-publisher")
        let answer = try await subscriber.answer(
            offer: try SessionDescription.parse(offer.text), feedsByMid: feedsByMid, dataChannelLabel: "from-subscriber",
            handlers: handlers)
        try await subscriber.install(routes: answer.routes)
        try await publisher.accept(answer: try SessionDescription.parse(answer.sdp.text))
        let outcome = try await publisher.waitConnected(timeout: .seconds(15))
        guard outcome == .connected else { throw ChildProcess.Failure(description: "the publisher did not connect: \(outcome)") }
        return answer
    }

    /// Sends `count` Opus frames (three bytes each) on the audio track, on the publisher's loop.
    func sendAudio(_ session: PublishSession, count: Int, from first: Int = 0) async throws {
        for index in first..<(first + count) {
            try await publisherLoop.submit {
                session.send(frame: [0xFC, UInt8(truncatingIfNeeded: index), 0xAB], mid: "0", rtpTimestamp: Int64(index) * 960, isKeyframe: true)
            }
        }
    }

    func frames(of participant: String, kind: MediaKind) -> [RemoteFrame] {
        seen.events.withLock { events in
            events.compactMap { event in
                guard case .frame(let frame) = event, frame.participantID == participant, frame.kind == kind else { return nil }
                return frame
            }
        }
    }

    var statisticsReports: Int {
        seen.events.withLock { $0.filter { if case .statistics = $0 { true } else { false } }.count }
    }

    var dataTexts: [String] {
        seen.events.withLock { events in
            events.compactMap { event in
                guard case .data(_, .text(let text), _) = event else { return nil }
                return text
            }
        }
    }

    /// Closes both ends (the publisher awaited on its loop), then the loops.
    func shutdown() async {
        await subscriber.stopTicking()
        subscriber.closeConnection()
        await publisher.close()
        // The subscriber's close is queued on its loop: wait for it before the loop goes.
        _ = try? await subscriberLoop.submit {}
        publisherLoop.shutdown()
        subscriberLoop.shutdown()
    }
}
