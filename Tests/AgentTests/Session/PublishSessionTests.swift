import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentTransport

/// What a PublishSession builds from the tracks of our offer.
@Suite struct PublishSessionTests {
    private static func tracks(video: MediaCodec) -> [TrackOffer] {
        [
            TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 1),
            TrackOffer(mid: "1", kind: .video, codec: video, payloadType: 98, ssrc: 2),
        ]
    }

    /// A PeerConnection on its own loop (loopback only, never connected) for `body`.
    private static func withPeer(_ name: String, _ body: (PeerConnection) async throws -> Void) async throws {
        let loop = EventLoop(name: name)
        defer { loop.shutdown() }
        let peer = try PeerConnection(loop: loop, localAddresses: ["127.0.0.1"])
        defer { peer.close() }
        try await body(peer)
    }

    /// SendStream packetizes Opus and VP8 only. A VP9 track used to get a VP8 stream, so its
    /// frames went out under VP8 payload descriptors that no VP9 receiver can read; it is refused.
    @Test func aVP9TrackIsRefusedInsteadOfSentAsVP8() async throws {
        try await Self.withPeer("test.publish.vp9") { peer in
            #expect(throws: SendStreamError.unsupportedCodec(.vp9)) { try PublishSession(peer: peer, tracks: Self.tracks(video: .vp9)) }
        }
    }

    @Test func opusAndVP8TracksEachGetAStream() async throws {
        try await Self.withPeer("test.publish.vp8") { peer in
            let session = try PublishSession(peer: peer, tracks: Self.tracks(video: .vp8))
            let streams = try await peer.loop.submit { ["0", "1"].map { session.statistics(mid: $0) != nil } }
            #expect(streams == [true, true])
        }
    }
}
