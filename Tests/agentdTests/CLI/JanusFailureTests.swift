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
