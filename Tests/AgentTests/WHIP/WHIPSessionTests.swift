import Foundation
import TestSupport
import Testing

@testable import AgentCore
@testable import AgentSession
@testable import AgentTransport
@testable import AgentWHIP

/// ``WHIPSession`` against a fake WHIP endpoint on loopback (``FakeWHIPEndpoint``): the offer goes
/// out with the bearer token, the answer makes a real media connection, the resource the relative
/// `Location` names is DELETEd at leave, and refusals and dead endpoints become the room API's
/// errors.
@Suite(.serialized) struct WHIPSessionTests {
    static let audio = TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 0x5151)

    /// A host session for `url` on its own loop, with its events kept.
    final class Harness: Sendable {
        let loop = EventLoop(name: "test.whip.session")
        let session: WHIPSession
        let events = LockedList<RoomEvent>()

        /// The connect timeout is also each HTTP exchange's deadline. It is long because the fake
        /// endpoint answers from the shared cooperative pool, which other suites' CPU-bound work
        /// can hold for seconds in a parallel run on two cores.
        init(url: String, token: String?, connectTimeout: Duration = .seconds(60)) {
            let events = self.events
            session = WHIPSession(
                join: RoomJoin(
                    endpoint: .whip(url: url), display: "ignored", role: .host, iceAddresses: ["127.0.0.1"],
                    timeouts: RoomTimeouts(connect: connectTimeout)),
                credentials: RoomCredentials(token: token, pin: "unused"),
                context: RoomSessionContext(
                    loop: loop, tickInterval: .milliseconds(20), statisticsInterval: .seconds(1),
                    events: { event in
                        if case .room(let room) = event { events.append(room) }
                    }))
        }

        func shutdown() async {
            await session.teardown()
            loop.shutdown()
        }
    }

    @Test("publish POSTs the offer with the bearer token, resolves the Location, sends media; leave DELETEs the resource")
    func publishesAndDeletes() async throws {
        try await SharedResourceLock.usrsctp.withShared {
            let endpoint = try FakeWHIPEndpoint(.answer(token: "t0ken"))
            let harness = Harness(url: endpoint.endpointURL, token: "t0ken")
            try await withCleanup {
                #expect(harness.session.capabilities == [.publish])
                try await harness.session.connect()
                let published = try await harness.session.publish(tracks: [Self.audio], dataChannel: false)
                #expect(published.publisherID == endpoint.resourceURL, "the relative Location, resolved against the endpoint")
                #expect(published.tracks == [Self.audio])

                let post = try #require(endpoint.received.first)
                #expect(post.method == "POST" && post.path == FakeWHIPEndpoint.endpointPath)
                #expect(post.header("content-type") == "application/sdp")
                #expect(post.header("authorization") == "Bearer t0ken")
                let offer = String(decoding: post.body, as: UTF8.self)
                #expect(offer.contains("a=candidate:"), "non-trickle: the candidates are in the offer")
                #expect(offer.contains("a=sendonly"))

                let session = published.session
                for index in 0..<20 {
                    try await harness.loop.submit {
                        session.send(frame: [0xFC, UInt8(index), 0xAB], mid: "0", rtpTimestamp: Int64(index) * 960, isKeyframe: true)
                    }
                }
                try await pollUntil(timeout: .seconds(30), "the audio at the endpoint") { endpoint.audioFrames >= 20 }
                #expect(await harness.session.sendStatistics()["0"]?.frames == 20)

                await harness.session.teardown()
                let delete = try #require(endpoint.received.last)
                #expect(delete.method == "DELETE" && delete.path == FakeWHIPEndpoint.resourcePath)
                #expect(delete.header("authorization") == "Bearer t0ken")
                await harness.session.teardown()  // idempotent: no second DELETE
                #expect(endpoint.received.map(\.method) == ["POST", "DELETE"])
            } cleanup: {
                await harness.shutdown()
                await endpoint.stop()
            }
        }
    }

    @Test("leaving waits a bounded time for a resource that never answers the DELETE")
    func deleteIsBounded() async throws {
        try await SharedResourceLock.usrsctp.withShared {
            let silent = try SilentTCPListener()
            defer { silent.close() }
            let endpoint = try FakeWHIPEndpoint(.answer(token: nil, location: "http://127.0.0.1:\(silent.port)/whip/resource/one"))
            let harness = Harness(url: endpoint.endpointURL, token: nil)
            try await withCleanup {
                let published = try await harness.session.publish(tracks: [Self.audio], dataChannel: false)
                #expect(published.publisherID == "http://127.0.0.1:\(silent.port)/whip/resource/one")
                let started = ContinuousClock.now
                await harness.session.teardown()
                let waited = ContinuousClock.now - started
                #expect(waited >= WHIPSession.deleteTimeout - .milliseconds(100) && waited < WHIPSession.deleteTimeout + .seconds(15), "\(waited)")
            } cleanup: {
                await harness.shutdown()
                await endpoint.stop()
            }
        }
    }

    @Test("a media connection that fails after the publish is reported as a drop")
    func mediaFailureIsADrop() async throws {
        try await SharedResourceLock.usrsctp.withShared {
            let endpoint = try FakeWHIPEndpoint(.answer(token: nil))
            let harness = Harness(url: endpoint.endpointURL, token: nil)
            try await withCleanup {
                _ = try await harness.session.publish(tracks: [Self.audio], dataChannel: false)
                #expect(harness.events.all.isEmpty)
                // The endpoint's close_notify fails our DTLS.
                endpoint.subscriber.closeConnection()
                try await pollUntil(timeout: .seconds(30), "the drop") {
                    harness.events.all.contains { event in
                        guard case .connectionState(.disconnected(.gaveUp(let why)), _) = event else { return false }
                        return why.hasPrefix("the media connection to the WHIP endpoint failed")
                    }
                }
            } cleanup: {
                await harness.shutdown()
                await endpoint.stop()
            }
        }
    }

    @Test("a 403 is tokenRefused (a refusal) naming the endpoint and never the token; nothing is left to DELETE")
    func forbidden() async throws {
        let endpoint = try FakeWHIPEndpoint(.answer(token: "right"))
        let harness = Harness(url: endpoint.endpointURL, token: "wrong-s3cret")
        try await withCleanup {
            try await harness.session.connect()
            let error = await #expect(throws: AgentError.self) { _ = try await harness.session.publish(tracks: [Self.audio], dataChannel: false) }
            guard case .tokenRefused(let reason) = error else {
                Issue.record("expected tokenRefused, got \(String(describing: error))")
                return
            }
            #expect(error?.isRefusal == true)
            #expect(reason.contains(endpoint.endpointURL) && reason.contains("403") && reason.contains("Unauthorized"), "\(reason)")
            #expect(!reason.contains("s3cret"))
            await harness.session.teardown()
            #expect(endpoint.received.map(\.method) == ["POST"])
        } cleanup: {
            await harness.shutdown()
            await endpoint.stop()
        }
    }

    @Test("a closed port is unreachable (connection failed), at once")
    func closedPort() async throws {
        let port = try LocalHTTPServer.closedPort()
        let url = "http://127.0.0.1:\(port)/whip/endpoint/one"
        let harness = Harness(url: url, token: nil)
        try await withCleanup {
            try await harness.session.connect()
            let started = ContinuousClock.now
            let error = await #expect(throws: AgentError.self) { _ = try await harness.session.publish(tracks: [Self.audio], dataChannel: false) }
            guard case .unreachable(let server, let reason) = error else {
                Issue.record("expected unreachable, got \(String(describing: error))")
                return
            }
            #expect(server == url)
            #expect(reason.contains("refused"), "\(reason)")
            #expect(ContinuousClock.now - started < .seconds(30), "refused, not waited out (the deadline is 60 s)")
        } cleanup: {
            await harness.shutdown()
        }
    }

    @Test("other answers: 404 is roomNotFound, 503 signalingFailed, a 201 without Location a protocol violation")
    func otherAnswers() async throws {
        let cases: [(FakeWHIPEndpoint.Behaviour, (AgentError) -> Bool)] = [
            (.status(404, "Invalid endpoint ID"), { if case .roomNotFound = $0 { true } else { false } }),
            (.status(503, "Janus unavailable"), { if case .signalingFailed(let why) = $0 { why.contains("503: Janus unavailable") } else { false } }),
            (.status(201, "v=0\r\n"), { if case .protocolViolation(let why) = $0 { why.contains("Location") } else { false } }),
        ]
        for (behaviour, matches) in cases {
            let endpoint = try FakeWHIPEndpoint(behaviour)
            let harness = Harness(url: endpoint.endpointURL, token: nil)
            try await withCleanup {
                let error = await #expect(throws: AgentError.self) { _ = try await harness.session.publish(tracks: [Self.audio], dataChannel: false) }
                #expect(error.map(matches) == true, "\(behaviour): \(String(describing: error))")
            } cleanup: {
                await harness.shutdown()
                await endpoint.stop()
            }
        }
    }

    @Test("an audience, a data channel or a URL that is not http(s) is refused before anything is sent")
    func refusedBeforeSending() async throws {
        let harness = Harness(url: "ws://127.0.0.1:1/whip", token: nil)
        try await withCleanup {
            await #expect(throws: AgentError.self) { try await harness.session.connect() }
            await #expect(throws: AgentError.unsupported("a data channel on a WHIP endpoint (WHIP carries media only)")) {
                _ = try await harness.session.publish(tracks: [Self.audio], dataChannel: true)
            }
            await #expect(throws: AgentError.dataChannelUnavailable) { try await harness.session.send(.text("x")) }
        } cleanup: {
            await harness.shutdown()
        }
    }
}
