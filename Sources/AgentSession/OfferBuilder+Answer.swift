import AgentCore
import AgentWire

/// Reading an answer to our offer: which tracks it turned down, and which codec it took for
/// each of the others.
extension OfferBuilder {
    /// The offered tracks the answer does not take: their section (found by mid, else by
    /// position) is missing, rejected (port 0), `inactive` or `sendonly` from the answerer's side,
    /// or names no payload type of a codec we offered.
    ///
    /// Janus answers a codec the room does not allow with `m=video 9 ... 0`, `a=inactive` and no
    /// rtpmap of ours, not with port 0, so all of these are checked.
    public static func tracksRefused(by answer: SessionDescription, offered tracks: [TrackOffer]) -> [TrackOffer] {
        tracks.enumerated().filter { index, track in chosenFormat(of: track, at: index, in: answer) == nil }.map(\.element)
    }

    /// The tracks as the answer took them: each with the codec of the first format of the
    /// answer's section that we offered (a Janus VideoRoom answers with the one of its room's
    /// list it picked), under the payload type the answer names for it (RFC 3264 §6.1 has the
    /// answerer reuse ours), and no alternatives left. A track the answer refused
    /// (``tracksRefused(by:offered:)``) stays as offered.
    public static func negotiated(_ tracks: [TrackOffer], by answer: SessionDescription) -> [TrackOffer] {
        tracks.enumerated().map { index, track in
            guard let (codec, payloadType) = chosenFormat(of: track, at: index, in: answer) else { return track }
            var negotiated = track
            negotiated.codec = codec
            negotiated.payloadType = payloadType
            negotiated.alternatives = []
            return negotiated
        }
    }

    /// The answer's section for the track at `index` of our offer (by mid, else by position),
    /// and the format it took there, if it takes the track at all.
    private static func chosenFormat(of track: TrackOffer, at index: Int, in answer: SessionDescription)
        -> (codec: MediaCodec, payloadType: UInt8)?
    {
        let section = answer.media.first { $0.mid == track.mid }
            ?? (index < answer.media.count && answer.media[index].mid == nil ? answer.media[index] : nil)
        guard let section, !section.isRejected else { return nil }
        guard section.direction == "recvonly" || section.direction == "sendrecv" else { return nil }
        let offered = track.offeredCodecs
        for map in section.rtpMaps {
            guard let codec = MediaCodec(encodingName: map.encodingName), offered.contains(codec) else { continue }
            return (codec, map.payloadType)
        }
        return nil
    }
}
