import AgentCore

/// Tells a room that refuses our codecs from other publish failures. Janus shows a refusal two
/// ways: an answer that does not take a track (Janus 1.1 answers an unallowed codec with an
/// `inactive` section and none of our payload types, see
/// ``OfferBuilder/tracksRefused(by:offered:)``), or an error for the whole `publish`. The room's
/// allowed codecs come from the VideoRoom `list` request; a private room is not listed, and the
/// error then carries nil.
enum CodecRefusalCheck {
    /// For tracks Janus's answer did not take: the ones the room's codecs leave out (all of
    /// them when the room's codecs are unknown or allow them all).
    static func error(rejected: [TrackOffer], room: String, videoRoom: VideoRoom) async -> JanusPublisherError {
        let codecs = try? await videoRoom.allowedCodecs(room: room)
        var refused = rejected
        if let codecs {
            let disallowed = rejected.filter { !$0.offeredCodecs.contains { codecs.allows($0) } }
            if !disallowed.isEmpty { refused = disallowed }
        }
        return .codecRefused(refused: refused, allowed: codecs)
    }

    /// For an error Janus returned to `publish`: a codec refusal when the room's codecs leave one
    /// of ours out, else the error as it was.
    static func error(afterPublishError error: Error, tracks: [TrackOffer], room: String, videoRoom: VideoRoom) async -> Error {
        guard case JanusError.plugin = error, let codecs = try? await videoRoom.allowedCodecs(room: room) else { return error }
        let disallowed = tracks.filter { !$0.offeredCodecs.contains { codecs.allows($0) } }
        return disallowed.isEmpty ? error : JanusPublisherError.codecRefused(refused: disallowed, allowed: codecs)
    }
}
