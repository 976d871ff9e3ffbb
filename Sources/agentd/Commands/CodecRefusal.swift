import Agent

/// The error line for a room that does not take the codecs we offer: exit 3 (refused), naming
/// the codecs the room allows so the user can pick a fitting file or room. (How a refusal is
/// detected lives in the Janus publisher; see ``AgentError/codecRefused(refused:allowed:)``.)
enum CodecRefusal {
    static func failure(room: String, refused: [TrackOffer], codecs: AllowedCodecs?) -> CommandFailure {
        let ours = refused.map { "\(name($0)) \($0.kind.rawValue)" }.joined(separator: " and ")
        guard let codecs else {
            return CommandFailure(.refused, "room '\(room)' does not accept \(ours); its allowed codecs are not listed (a private room?)",
                                  hint: "allow \(refused.map(name).joined(separator: ",")) in the room")
        }
        return CommandFailure(.refused, "room '\(room)' does not allow \(ours): it allows \(codecs)",
                              hint: "play a file in an allowed codec, or create the room with \(refused.map(name).joined(separator: ",")) allowed")
    }

    /// `vp8`, or `vp8/h264` for a track that offered either (the room may allow any one).
    private static func name(_ track: TrackOffer) -> String { track.offeredCodecs.map(\.name).joined(separator: "/") }
}
