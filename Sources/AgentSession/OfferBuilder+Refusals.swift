import AgentCore
import AgentWire

/// Reading an answer for the tracks it turned down.
extension OfferBuilder {
    /// The offered tracks the answer does not take: their section (found by mid, else by
    /// position) is missing, rejected (port 0), `inactive` or `sendonly` from the answerer's side,
    /// or names no payload type of the codec we offered.
    ///
    /// Janus answers a codec the room does not allow with `m=video 9 ... 0`, `a=inactive` and no
    /// rtpmap of ours, not with port 0, so all of these are checked.
    public static func tracksRefused(by answer: SessionDescription, offered tracks: [TrackOffer]) -> [TrackOffer] {
        tracks.enumerated().filter { index, track in
            let section = answer.media.first { $0.mid == track.mid }
                ?? (index < answer.media.count && answer.media[index].mid == nil ? answer.media[index] : nil)
            guard let section, !section.isRejected else { return true }
            guard section.direction == "recvonly" || section.direction == "sendrecv" else { return true }
            return !section.rtpMaps.contains { MediaCodec(encodingName: $0.encodingName) == track.codec }
        }.map(\.element)
    }
}
