import Testing

@testable import Agent

/// What a PublishSession builds from the tracks of our offer.
@Suite struct PublishSessionTests {
    /// SendStream packetizes Opus and VP8 only. A VP9 track used to get a VP8 stream, so its
    /// frames went out under VP8 payload descriptors that no VP9 receiver can read; it is refused.
    @Test func aVP9TrackIsRefusedInsteadOfSentAsVP8() throws {
        let loop = EventLoop(name: "test.publish.vp9")
        defer { loop.shutdown() }
        let peer = try PeerConnection(loop: loop, localAddresses: ["127.0.0.1"])
        defer { peer.close() }
        let tracks = [
            OfferBuilder.Track(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 1),
            OfferBuilder.Track(mid: "1", kind: .video, codec: .vp9, payloadType: 98, ssrc: 2),
        ]
        #expect(throws: SendStreamError.self) { try PublishSession(peer: peer, tracks: tracks) }
    }

    @Test func opusAndVP8TracksEachGetAStream() async throws {
        let loop = EventLoop(name: "test.publish.vp8")
        defer { loop.shutdown() }
        let peer = try PeerConnection(loop: loop, localAddresses: ["127.0.0.1"])
        defer { peer.close() }
        let tracks = [
            OfferBuilder.Track(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 1),
            OfferBuilder.Track(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 2),
        ]
        let session = try PublishSession(peer: peer, tracks: tracks)
        let streams = try await loop.submit { ["0", "1"].map { session.statistics(mid: $0) != nil } }
        #expect(streams == [true, true])
    }
}
