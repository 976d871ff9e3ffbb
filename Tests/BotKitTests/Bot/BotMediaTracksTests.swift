import Agent
import Testing

@testable import BotKit

/// What a bot offers for its video track: the track's codec, or every codec of the room's
/// choice in one section; a codec it cannot packetize is refused before anything joins.
@Suite struct BotMediaTracksTests {
    @Test(arguments: [MediaCodec.vp8, .h264])
    func aTrackOfOneCodecOffersThatCodec(_ codec: MediaCodec) throws {
        let media = BotMedia(videoTrack: try VideoTrack(configuration: .init(codec: codec)))
        let tracks = try media.tracks()
        #expect(tracks.map(\.codec) == [codec])
        #expect(tracks.map(\.payloadType) == [codec.defaultPayloadType])
        #expect(tracks.allSatisfy { $0.alternatives.isEmpty })
    }

    @Test func theRoomsChoiceOffersVP8ThenH264InOneSection() throws {
        let media = BotMedia(audioTrack: try AudioTrack(configuration: .init()), videoTrack: try VideoTrack(configuration: .init(codec: nil)))
        let tracks = try media.tracks()
        #expect(tracks.map(\.mid) == ["0", "1"])
        #expect(tracks[1].codec == .vp8 && tracks[1].alternatives == [.h264])
        #expect(tracks[1].offeredFormats.map(\.payloadType) == [96, 102])
    }

    @Test func aVP9TrackEncodesButCannotBeSent() throws {
        let media = BotMedia(videoTrack: try VideoTrack(configuration: .init(codec: .vp9)))
        #expect(throws: BotError.cannotSend(.vp9)) { try media.tracks() }
    }
}
