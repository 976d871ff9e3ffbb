import Agent

/// The error for a room that does not take the codecs we offer: exit 3 (refused), naming the
/// codecs the room allows so the user can pick a fitting file or room.
///
/// Janus shows a refusal two ways: an answer that does not take our track (Janus 1.1 answers an
/// unallowed codec with an `inactive` section and no payload type of ours, see
/// ``OfferBuilder/tracksRefused(by:offered:)``), or an error for the whole `publish`. Either way
/// the room's allowed codecs come from the VideoRoom `list` request
/// (``VideoRoom/allowedCodecs(room:adminKey:)``); a private room is not listed, and the message
/// then says so instead.
enum CodecRefusal {
    /// For tracks Janus's answer did not take.
    static func failure(room: String, rejected: [OfferBuilder.Track], videoRoom: VideoRoom) async -> CommandFailure {
        let codecs = try? await videoRoom.allowedCodecs(room: room)
        var refused = rejected
        if let codecs {
            let disallowed = rejected.filter { !allows(codecs, $0) }
            if !disallowed.isEmpty { refused = disallowed }
        }
        return failure(room: room, refused: refused, codecs: codecs)
    }

    /// For an error Janus returned to `publish`: a codec refusal when the room's codecs leave one of
    /// ours out, else the error as it was.
    static func failure(afterPublishError error: Error, room: String, tracks: [OfferBuilder.Track], videoRoom: VideoRoom) async -> Error {
        guard case JanusError.plugin = error, let codecs = try? await videoRoom.allowedCodecs(room: room) else { return error }
        let disallowed = tracks.filter { !allows(codecs, $0) }
        return disallowed.isEmpty ? error : failure(room: room, refused: disallowed, codecs: codecs)
    }

    static func failure(room: String, refused: [OfferBuilder.Track], codecs: VideoRoomCodecs?) -> CommandFailure {
        let ours = refused.map { "\(name($0)) \($0.kind == .audio ? "audio" : "video")" }.joined(separator: " and ")
        guard let codecs else {
            return CommandFailure(.refused, "room '\(room)' does not accept \(ours); its allowed codecs are not listed (a private room?)",
                                  hint: "allow \(refused.map(name).joined(separator: ",")) in the room")
        }
        return CommandFailure(.refused, "room '\(room)' does not allow \(ours): it allows \(codecs)",
                              hint: "play a file in an allowed codec, or create the room with \(refused.map(name).joined(separator: ",")) allowed")
    }

    private static func allows(_ codecs: VideoRoomCodecs, _ track: OfferBuilder.Track) -> Bool {
        track.kind == .audio ? codecs.allows(audio: name(track)) : codecs.allows(video: name(track))
    }

    private static func name(_ track: OfferBuilder.Track) -> String { track.codec.rawValue.lowercased() }
}
