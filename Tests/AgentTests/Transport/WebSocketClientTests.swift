import Agent
import Foundation
import Testing

@Suite("WebSocketClient")
struct WebSocketClientTests {
    @Test("text round trip through a local SoupServer, then a clean close")
    func echoRoundTrip() async throws {
        let serverLoop = EventLoop(name: "test.ws.server")
        let clientLoop = EventLoop(name: "test.ws.client")
        defer {
            clientLoop.shutdown()
            serverLoop.shutdown()
        }
        let server = try LocalWebSocketServer(loop: serverLoop, protocols: ["janus-protocol"]) { [$0] }
        defer { server.stop() }
        #expect(server.port != 0)

        let client = WebSocketClient(loop: clientLoop)
        try await client.connect(
            url: server.url, protocols: ["janus-protocol"], headers: [(name: "X-Agent-Test", value: "1")])
        #expect(await client.negotiatedProtocol() == "janus-protocol")

        // The last payload is 400 KB, above libsoup's 128 KiB default limit on both ends.
        let payloads = ["hello", "{\"janus\":\"keepalive\",\"transaction\":\"t1\"}", String(repeating: "é", count: 200_000)]
        for payload in payloads { try await client.send(text: payload) }

        let events = EventCollector(client.events)
        for payload in payloads {
            let event = try await events.next(within: .seconds(5))
            let matches = event == .text(payload)
            #expect(matches, "echo of a \(payload.utf8.count)-byte message differs")
        }
        #expect(server.received.map(\.utf8.count) == [5, 40, 400_000])
        #expect(server.received == payloads)

        client.close()
        client.close()  // idempotent
        let closing = try await events.next(within: .seconds(5))
        #expect(closing == .closed(code: 1000, reason: ""))
        let end = try await events.next(within: .seconds(5))
        #expect(end == nil)

        await #expect(throws: WebSocketError.closed(code: 1000, reason: "")) {
            try await client.send(text: "after close")
        }
        #expect(client.droppedEvents == 0)
    }

    @Test("a server-initiated close arrives as .closed with the server's code and reason")
    func serverClose() async throws {
        let serverLoop = EventLoop(name: "test.ws.server2")
        let clientLoop = EventLoop(name: "test.ws.client2")
        defer {
            clientLoop.shutdown()
            serverLoop.shutdown()
        }
        let server = try LocalWebSocketServer(loop: serverLoop) { [$0] }
        defer { server.stop() }
        let client = WebSocketClient(loop: clientLoop)
        try await client.connect(url: server.url)
        try await client.send(text: "ping")
        let events = EventCollector(client.events)
        #expect(try await events.next(within: .seconds(5)) == .text("ping"))

        server.closeClients(code: 4001, reason: "kicked")
        let event = try await events.next(within: .seconds(5))
        #expect(event == .closed(code: 4001, reason: "kicked"))
        await #expect(throws: WebSocketError.closed(code: 4001, reason: "kicked")) {
            try await client.send(text: "late")
        }
    }

    @Test("connecting to a closed port fails fast with connectFailed")
    func closedPort() async throws {
        let clientLoop = EventLoop(name: "test.ws.refused")
        defer { clientLoop.shutdown() }
        // Find a port nobody listens on: bind a server, note its port, stop it.
        let probeLoop = EventLoop(name: "test.ws.probe")
        let probe = try LocalWebSocketServer(loop: probeLoop) { _ in [] }
        let port = probe.port
        probe.stop()
        probeLoop.shutdown()

        let client = WebSocketClient(loop: clientLoop)
        let started = ContinuousClock.now
        do {
            try await client.connect(url: "ws://127.0.0.1:\(port)/", timeout: .seconds(5))
            Issue.record("connect to a closed port succeeded")
        } catch let error as WebSocketError {
            guard case .connectFailed(let reason) = error else {
                Issue.record("expected connectFailed, got \(error)")
                return
            }
            #expect(!reason.isEmpty)
            // Refused, not waited out: the 5 s timeout must not be what ended it.
            #expect(!reason.contains("timed out"), "\(reason)")
        }
        _ = started
        await #expect(throws: WebSocketError.self) { try await client.send(text: "x") }
    }

    @Test("a server that never answers the upgrade times out with connectFailed")
    func handshakeTimeout() async throws {
        // A plain TCP listener that accepts and stays silent.
        let listener = try SilentTCPListener()
        defer { listener.close() }
        let clientLoop = EventLoop(name: "test.ws.timeout")
        defer { clientLoop.shutdown() }
        let client = WebSocketClient(loop: clientLoop)
        let started = ContinuousClock.now
        await #expect(throws: WebSocketError.connectFailed(reason: "timed out")) {
            try await client.connect(url: "ws://127.0.0.1:\(listener.port)/", timeout: .milliseconds(300))
        }
        let elapsed = ContinuousClock.now - started
        // The lower bound shows the timeout, not a refusal, ended it. The upper bound is loose: at
        // the start of a full run on 2 cores every task waits its turn for many seconds.
        #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(60), "timeout took \(elapsed)")
    }

    @Test("invalid URLs are rejected before touching the network")
    func invalidURL() async throws {
        let loop = EventLoop(name: "test.ws.url")
        defer { loop.shutdown() }
        let client = WebSocketClient(loop: loop)
        await #expect(throws: WebSocketError.invalidURL("http://127.0.0.1/")) {
            try await client.connect(url: "http://127.0.0.1/")
        }
        await #expect(throws: WebSocketError.invalidURL("not a url")) {
            try await client.connect(url: "not a url")
        }
    }
}
