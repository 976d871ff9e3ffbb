import Foundation
import Testing

@testable import Agent
@testable import AgentTransport

/// Two in-process endpoints handshake by handing datagrams to each other; no sockets.
@Suite("DTLSTransport")
struct DTLSTransportTests {
    /// Everything one side saw while the loop ran.
    struct Side {
        var events: [DTLSEvent] = []
        var sentSizes: [Int] = []

        var result: DTLSHandshakeResult? {
            for case .handshakeCompleted(let result) in events { return result }
            return nil
        }
        var failure: DTLSError? {
            for case .failed(let error) in events { return error }
            return nil
        }
        var received: [[UInt8]] {
            events.compactMap { if case .applicationData(let bytes) = $0 { bytes } else { nil } }
        }
    }

    /// Passes datagrams between the two until neither has anything left to say.
    static func run(
        _ client: DTLSTransport, _ server: DTLSTransport,
        clientSide: inout Side, serverSide: inout Side, first: DTLSOutput
    ) {
        var toServer = first.datagrams
        clientSide.events += first.events
        clientSide.sentSizes += first.datagrams.map(\.count)
        var toClient: [[UInt8]] = []
        var rounds = 0
        while !(toServer.isEmpty && toClient.isEmpty) && rounds < 100 {
            rounds += 1
            for datagram in toServer {
                let output = server.receive(datagram)
                serverSide.events += output.events
                serverSide.sentSizes += output.datagrams.map(\.count)
                toClient += output.datagrams
            }
            toServer = []
            for datagram in toClient {
                let output = client.receive(datagram)
                clientSide.events += output.events
                clientSide.sentSizes += output.datagrams.map(\.count)
                toServer += output.datagrams
            }
            toClient = []
        }
    }

    static func makePair(
        mtu: Int = DTLSTransport.defaultMTU,
        clientExpects: DTLSFingerprint? = nil,
        serverExpects: DTLSFingerprint? = nil,
        profiles: [SRTPProfile] = [.aes128CmHmacSha1_80]
    ) throws -> (client: DTLSTransport, server: DTLSTransport, clientCertificate: DTLSCertificate, serverCertificate: DTLSCertificate) {
        let clientCertificate = try DTLSCertificate()
        let serverCertificate = try DTLSCertificate()
        let client = try DTLSTransport(
            role: .client, certificate: clientCertificate,
            remoteFingerprint: clientExpects ?? serverCertificate.fingerprint, srtpProfiles: profiles, mtu: mtu)
        let server = try DTLSTransport(
            role: .server, certificate: serverCertificate,
            remoteFingerprint: serverExpects ?? clientCertificate.fingerprint, srtpProfiles: profiles, mtu: mtu)
        return (client, server, clientCertificate, serverCertificate)
    }

    @Test("Handshake: both export the same 60 octets and profile, and verify each other's fingerprint")
    func handshakeExportsIdenticalKeys() throws {
        let (client, server, clientCertificate, serverCertificate) = try Self.makePair()
        var clientSide = Side()
        var serverSide = Side()
        #expect(server.start() == DTLSOutput(), "the server waits for the ClientHello")
        let hello = client.start()
        #expect(hello.datagrams.count >= 1)
        #expect(hello.datagrams.allSatisfy { PacketDemuxer.classify($0) == .dtls })
        Self.run(client, server, clientSide: &clientSide, serverSide: &serverSide, first: hello)

        let clientResult = try #require(clientSide.result)
        let serverResult = try #require(serverSide.result)
        #expect(client.state == .connected)
        #expect(server.state == .connected)
        #expect(clientResult.profile == .aes128CmHmacSha1_80)
        #expect(serverResult.profile == .aes128CmHmacSha1_80)
        #expect(clientResult.keyingMaterial.count == 60)
        #expect(clientResult.keyingMaterial == serverResult.keyingMaterial)
        #expect(Set(clientResult.keyingMaterial).count > 20, "looks random, not zeros")
        #expect(clientResult.remoteFingerprint == serverCertificate.fingerprint)
        #expect(serverResult.remoteFingerprint == clientCertificate.fingerprint)
        #expect(!clientResult.description.contains(clientResult.keyingMaterial.map { String($0) }.joined(separator: ", ")))
        #expect((clientSide.sentSizes + serverSide.sentSizes).allSatisfy { $0 <= 1200 })
        #expect(client.retransmissionTimeout == nil)

        // The exported keys drive SRTP both ways.
        let clientKeys = try clientResult.srtpKeys(role: .client)
        let serverKeys = try serverResult.srtpKeys(role: .server)
        let plain: [UInt8] = [0x80, 111, 0, 1, 0, 0, 0, 0, 0, 0, 0, 42] + Array(repeating: 0x11, count: 50)
        var packet = plain
        try clientKeys.makeOutboundContext().protectRTP(&packet)
        try serverKeys.makeInboundContext().unprotectRTP(&packet)
        #expect(packet == plain)
        packet = plain
        try serverKeys.makeOutboundContext().protectRTP(&packet)
        try clientKeys.makeInboundContext().unprotectRTP(&packet)
        #expect(packet == plain)
    }

    @Test("Handshake fragments to a small MTU and every datagram fits it")
    func smallMTUFragments() throws {
        let (client, server, _, _) = try Self.makePair(mtu: 300)
        var clientSide = Side()
        var serverSide = Side()
        Self.run(client, server, clientSide: &clientSide, serverSide: &serverSide, first: client.start())
        #expect(clientSide.result != nil)
        #expect(serverSide.result?.keyingMaterial == clientSide.result?.keyingMaterial)
        let sizes = clientSide.sentSizes + serverSide.sentSizes
        #expect(sizes.allSatisfy { $0 <= 300 }, "largest datagram \(sizes.max() ?? 0)")
        #expect(sizes.count > 6, "the flights were split into more datagrams")
    }

    @Test("GCM profile is negotiated when both prefer it, with 56 octets of keys")
    func gcmProfile() throws {
        let (client, server, _, _) = try Self.makePair(profiles: [.aeadAes128Gcm, .aes128CmHmacSha1_80])
        var clientSide = Side()
        var serverSide = Side()
        Self.run(client, server, clientSide: &clientSide, serverSide: &serverSide, first: client.start())
        let result = try #require(clientSide.result)
        #expect(result.profile == .aeadAes128Gcm)
        #expect(result.keyingMaterial.count == 56)
        #expect(serverSide.result?.keyingMaterial == result.keyingMaterial)
    }

    @Test("A client expecting another fingerprint fails with fingerprintMismatch; the server fails too")
    func clientSeesWrongFingerprint() throws {
        let stranger = try DTLSCertificate()
        let (client, server, _, serverCertificate) = try Self.makePair(clientExpects: stranger.fingerprint)
        var clientSide = Side()
        var serverSide = Side()
        Self.run(client, server, clientSide: &clientSide, serverSide: &serverSide, first: client.start())
        #expect(clientSide.result == nil)
        #expect(serverSide.result == nil)
        #expect(clientSide.failure == .fingerprintMismatch(expected: stranger.fingerprint, actual: serverCertificate.fingerprint))
        #expect(client.state == .failed(.fingerprintMismatch(expected: stranger.fingerprint, actual: serverCertificate.fingerprint)))
        guard case .failed(.handshakeFailed) = server.state else {
            Issue.record("server state \(server.state)")
            return
        }
        #expect(throws: DTLSError.notConnected) { try client.send([1]) }
    }

    @Test("A server expecting another fingerprint fails with fingerprintMismatch")
    func serverSeesWrongFingerprint() throws {
        let stranger = try DTLSCertificate()
        let (client, server, clientCertificate, _) = try Self.makePair(serverExpects: stranger.fingerprint)
        var clientSide = Side()
        var serverSide = Side()
        Self.run(client, server, clientSide: &clientSide, serverSide: &serverSide, first: client.start())
        #expect(serverSide.failure == .fingerprintMismatch(expected: stranger.fingerprint, actual: clientCertificate.fingerprint))
        #expect(serverSide.result == nil)
        // The client may have finished its side before the server's alert; it must not stay
        // usable once the alert arrives.
        #expect(client.state != .connected)
    }

    @Test("Application data goes both ways and each datagram fits the MTU")
    func applicationData() throws {
        let (client, server, _, _) = try Self.makePair()
        var clientSide = Side()
        var serverSide = Side()
        Self.run(client, server, clientSide: &clientSide, serverSide: &serverSide, first: client.start())
        try #require(client.state == .connected && server.state == .connected)

        let maximum = client.maximumApplicationDataSize
        #expect(maximum > 1100 && maximum < 1200, "data MTU \(maximum)")
        let messages: [[UInt8]] = [[1], Array(repeating: 7, count: 1000), (0..<maximum).map { UInt8(truncatingIfNeeded: $0) }]
        for message in messages {
            let datagrams = try client.send(message)
            #expect(datagrams.count == 1)
            #expect(datagrams.allSatisfy { $0.count <= 1200 && PacketDemuxer.classify($0) == .dtls })
            let events = datagrams.flatMap { server.receive($0).events }
            #expect(events == [.applicationData(message)])

            let reply = Array(message.reversed())
            let back = try server.send(reply)
            #expect(back.allSatisfy { $0.count <= 1200 })
            #expect(back.flatMap { client.receive($0).events } == [.applicationData(reply)])
        }
        #expect(throws: DTLSError.applicationDataTooLarge(maximum: maximum, got: maximum + 1)) {
            try client.send([UInt8](repeating: 0, count: maximum + 1))
        }
        #expect(try client.send([]) == [])

        // close_notify reaches the peer, and closing again sends nothing.
        let goodbye = client.close()
        #expect(goodbye.datagrams.count == 1)
        #expect(client.close() == DTLSOutput())
        #expect(goodbye.datagrams.flatMap { server.receive($0).events } == [.closedByPeer])
        #expect(server.state == .closed)
        #expect(throws: DTLSError.notConnected) { try client.send([1]) }
    }

    @Test("Sending before the handshake throws notConnected; garbage is dropped and the handshake goes on")
    func misuseAndGarbage() throws {
        let (client, server, _, _) = try Self.makePair()
        #expect(throws: DTLSError.notConnected) { try client.send([1, 2, 3]) }
        #expect(throws: DTLSError.setupFailed(reason: "MTU 100 outside 256...4096")) {
            try DTLSTransport(role: .client, certificate: DTLSCertificate(), remoteFingerprint: server.expectedRemoteFingerprint, mtu: 100)
        }
        let hello = client.start()
        // Invalid records are silently discarded (RFC 6347 §4.1.2.7): application data from an
        // epoch not yet in use, a truncated header, a record longer than its datagram, an
        // unknown version, an empty datagram.
        let garbage: [[UInt8]] = [
            [23, 0xFE, 0xFD, 0, 1, 0, 0, 0, 0, 0, 9, 0, 2, 0xAA, 0xBB],
            [22, 0xFE],
            [22, 0xFE, 0xFD, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x00, 1, 2, 3],
            [22, 0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1],
            [],
        ]
        for datagram in garbage {
            let output = server.receive(datagram)
            #expect(output.events.isEmpty)
            #expect(output.datagrams.isEmpty)
        }
        #expect(server.state == .handshaking)
        for datagram in garbage { #expect(client.receive(datagram).events.isEmpty) }

        var clientSide = Side()
        var serverSide = Side()
        Self.run(client, server, clientSide: &clientSide, serverSide: &serverSide, first: hello)
        #expect(clientSide.result != nil)
        #expect(serverSide.result?.keyingMaterial == clientSide.result?.keyingMaterial)
    }

    @Test("A well-formed record carrying a malformed handshake message fails the handshake, typed")
    func malformedHandshakeMessage() throws {
        let (_, server, _, _) = try Self.makePair()
        // Epoch 0 handshake record, length 4, holding a 4-octet fragment of no valid message.
        let output = server.receive([22, 0xFE, 0xFD, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 2, 3, 4])
        guard case .failed(.handshakeFailed(let reason))? = output.events.first else {
            Issue.record("events \(output.events)")
            return
        }
        #expect(reason.contains("unexpected message"))
        #expect(output.datagrams.count == 1 && output.datagrams.first?.first == 21, "an alert record goes out")
        #expect(server.receive([22, 0xFE, 0xFD]).events.isEmpty, "a failed transport ignores input")
    }

    @Test("A lost ClientHello is retransmitted when the timer fires, and the handshake completes")
    func retransmission() async throws {
        let clientCertificate = try DTLSCertificate()
        let serverCertificate = try DTLSCertificate()
        let client = try DTLSTransport(
            role: .client, certificate: clientCertificate, remoteFingerprint: serverCertificate.fingerprint,
            initialRetransmissionTimeout: .milliseconds(20))
        let server = try DTLSTransport(
            role: .server, certificate: serverCertificate, remoteFingerprint: clientCertificate.fingerprint)
        let lost = client.start()
        #expect(!lost.datagrams.isEmpty)
        let timeout = try #require(client.retransmissionTimeout)
        #expect(timeout > .zero && timeout <= .milliseconds(20))
        #expect(client.handleTimeout().datagrams.isEmpty, "not expired yet")

        let deadline = ContinuousClock.now + .seconds(5)
        var resent: [[UInt8]] = []
        while resent.isEmpty && ContinuousClock.now < deadline {
            if let remaining = client.retransmissionTimeout, remaining > .zero {
                try await Task.sleep(for: remaining)
            }
            resent = client.handleTimeout().datagrams
        }
        #expect(!resent.isEmpty)
        #expect(resent.allSatisfy { PacketDemuxer.classify($0) == .dtls })
        #expect(try #require(client.retransmissionTimeout) > .milliseconds(20), "the timer doubled")

        var clientSide = Side()
        var serverSide = Side()
        Self.run(client, server, clientSide: &clientSide, serverSide: &serverSide, first: DTLSOutput(datagrams: resent))
        #expect(clientSide.result != nil)
        #expect(serverSide.result?.keyingMaterial == clientSide.result?.keyingMaterial)
    }

    @Test("DTLS role follows the SDP setup attribute")
    func roleFromSetup() {
        #expect(DTLSRole(localSetup: "active") == .client)
        #expect(DTLSRole(localSetup: "passive") == .server)
        #expect(DTLSRole(localSetup: "actpass") == nil)
        #expect(DTLSRole(answeringRemoteSetup: "actpass") == .client)
        #expect(DTLSRole(answeringRemoteSetup: "active") == .server)
        #expect(DTLSRole(answeringRemoteSetup: "holdconn") == nil)
        #expect(DTLSRole.client.sdpSetup == "active")
    }
}
