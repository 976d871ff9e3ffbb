import Agent
import Testing

@testable import agentd

/// A Janus failure's CLI line names the server with its credentials masked (JanusURLTests).
@Suite struct JanusFailureTests {
    @Test func janusFailuresShowTheMaskedServer() {
        let failure = JanusFailure.failure(for: JanusError.connectFailed(reason: "refused"), server: "ws://u:secret@h:1/", room: "r")
        #expect(failure.what == "cannot reach Janus at ws://***@h:1/: refused")
        #expect(!failure.line.contains("secret"))
    }
}

/// A WHIP endpoint's failures read as the endpoint's, with the same exit codes as Janus's.
@Suite struct WHIPFailureTests {
    static let endpoint = "http://10.77.0.2:7080/whip/endpoint/one"

    @Test("refused token: exit 3, names the endpoint; unreachable: exit 4; the rest as for Janus")
    func whipLines() {
        let refused = JanusFailure.failure(
            for: AgentError.tokenRefused("\(Self.endpoint) answered HTTP 403: Unauthorized"), server: Self.endpoint, room: Self.endpoint,
            platform: .whip)
        #expect(refused == CommandFailure(
            .refused, "the WHIP endpoint refused us: \(Self.endpoint) answered HTTP 403: Unauthorized",
            hint: "check --token; simple-whip-server also answers 403 while the endpoint is in use"))
        let unreachable = JanusFailure.failure(
            for: AgentError.unreachable(server: Self.endpoint, reason: "connection refused (x)"), server: Self.endpoint, room: Self.endpoint,
            platform: .whip)
        #expect(unreachable.code == .connectionFailed)
        #expect(unreachable.what == "cannot reach the WHIP endpoint at \(Self.endpoint): connection refused (x)")
        let missing = JanusFailure.failure(for: AgentError.roomNotFound(room: Self.endpoint), server: Self.endpoint, room: Self.endpoint, platform: .whip)
        #expect(missing.code == .refused && missing.what == "no WHIP endpoint at \(Self.endpoint)")
        let media = JanusFailure.failure(for: AgentError.mediaFailed("ICE"), server: Self.endpoint, room: Self.endpoint, platform: .whip)
        #expect(media == JanusFailure.failure(for: AgentError.mediaFailed("ICE"), server: Self.endpoint, room: Self.endpoint))
    }
}
