import Foundation
import TestSupport

@testable import AgentCore
@testable import AgentSession
@testable import AgentTransport
@testable import AgentWire

/// A WHIP endpoint on loopback with no Janus behind it: an in-process ``HTTPServer`` that answers
/// a POSTed offer with a ``SubscriberMedia``'s answer (the receiving side of a real connection)
/// at `201 Created` with a relative `Location`, and a DELETE of that resource with 200. What it
/// received, and the frames that reached its subscriber, are kept for the tests.
final class FakeWHIPEndpoint: Sendable {
    /// What the endpoint answers to the POST.
    enum Behaviour: Sendable {
        /// 201 + Location (`location`, else ``resourcePath``) + a real answer; 403 when the
        /// bearer is not `token` (nil: any).
        case answer(token: String?, location: String? = nil)
        /// This status and body, no Location.
        case status(Int, String)
    }

    static let endpointPath = "/whip/endpoint/one"
    static let resourcePath = "/whip/resource/one"

    let server: LocalHTTPServer
    let loop = EventLoop(name: "test.whip.endpoint")
    let subscriber: SubscriberMedia
    private let events = LockedList<RoomEvent>()

    init(_ behaviour: Behaviour) throws {
        let events = self.events
        let subscriber = SubscriberMedia(
            loop: loop, localAddresses: ["127.0.0.1"], tickInterval: .milliseconds(20), statisticsInterval: .seconds(1),
            sink: { event in events.append(event) })
        self.subscriber = subscriber
        server = try LocalHTTPServer(name: "test.whip.http") { request in
            await Self.respond(to: request, behaviour: behaviour, subscriber: subscriber)
        }
    }

    var endpointURL: String { server.url(Self.endpointPath) }
    var resourceURL: String { server.url(Self.resourcePath) }
    var received: [HTTPRequest] { server.received }

    /// Audio frames that reached the subscriber (from the feed "whip").
    var audioFrames: Int {
        events.all.filter { if case .frame(let frame) = $0, frame.kind == .audio { true } else { false } }.count
    }

    private static func respond(to request: HTTPRequest, behaviour: Behaviour, subscriber: SubscriberMedia) async -> HTTPResponse {
        switch (request.method, request.path) {
        case ("POST", endpointPath):
            switch behaviour {
            case .status(let code, let body):
                return .text(code, body)
            case .answer(let token, let location):
                if let token, request.header("authorization") != "Bearer \(token)" { return .text(403, "Unauthorized") }
                guard request.header("content-type") == "application/sdp" else { return .text(406, "Unsupported content type") }
                do {
                    let offer = try SessionDescription.parse(String(decoding: request.body, as: UTF8.self))
                    let mids = offer.media.compactMap { $0.mid }
                    let answer = try await subscriber.answer(
                        offer: offer, feedsByMid: Dictionary(uniqueKeysWithValues: mids.map { ($0, "whip") }),
                        dataChannelLabel: nil, handlers: .init(onFailure: { _ in }, onDataTransportLost: {}))
                    try await subscriber.install(routes: answer.routes)
                    var response = HTTPResponse.text(201, answer.sdp.text, contentType: "application/sdp")
                    response.headers["Location"] = location ?? resourcePath
                    response.headers["ETag"] = "\"e1\""
                    return response
                } catch {
                    return .text(400, "bad offer: \(error)")
                }
            }
        case ("DELETE", resourcePath):
            return .text(200, "OK")
        default:
            return .text(404, "Invalid endpoint ID")
        }
    }

    /// Closes the subscriber (on its loop, awaited), the server and the loops.
    func stop() async {
        await subscriber.stopTicking()
        subscriber.closeConnection()
        _ = try? await loop.submit {}
        server.stop()
        loop.shutdown()
    }
}
