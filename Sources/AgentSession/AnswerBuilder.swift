import AgentCore
import AgentTransport
import AgentWire

/// Writes our SDP answer to a server's offer (RFC 3264, RFC 8829 §5.3) for a receive-only
/// subscription: every offered audio/video section we can decode is accepted, as `recvonly` where
/// the offerer sends and `inactive` where it holds the section, the data section is accepted,
/// and everything else is rejected with port 0, keeping the offer's
/// order and mids as RFC 3264 §6 requires. All sections share one transport (BUNDLE, RFC 8843).
public enum AnswerBuilder {
    public enum Error: Swift.Error, Equatable, Sendable {
        /// The offer is not something we can answer at all.
        case unusableOffer(String)
    }

    static let midExtension = "urn:ietf:params:rtp-hdrext:sdes:mid"
    /// RFC 6464: the sender's audio level in every audio packet, which spares a listener that
    /// only wants to know who speaks the Opus decode.
    static let audioLevelExtension = "urn:ietf:params:rtp-hdrext:ssrc-audio-level"

    public static func answer(
        to offer: SessionDescription, local: LocalTransportParameters, sessionID: UInt64 = UInt64.random(in: 1...UInt64(Int64.max))
    ) throws(Error) -> (answer: SessionDescription, streams: [NegotiatedStream]) {
        guard !offer.media.isEmpty else { throw .unusableOffer("no media sections") }
        var streams: [NegotiatedStream] = []
        var sections: [MediaDescription] = []
        for (index, section) in offer.media.enumerated() {
            let mid = section.mid ?? String(index)
            let stream = negotiate(section, mid: mid)
            streams.append(stream)
            sections.append(answerSection(for: section, stream: stream, local: local, carriesCandidates: false))
        }
        // Candidates and end-of-candidates go in the first accepted section (the BUNDLE tag).
        guard let tagIndex = streams.firstIndex(where: \.isAccepted) else {
            throw .unusableOffer("no section we can receive (\(offer.media.map(\.kind).joined(separator: ", ")))")
        }
        sections[tagIndex] = answerSection(for: offer.media[tagIndex], stream: streams[tagIndex], local: local, carriesCandidates: true)

        var answer = SessionDescription(lines: [
            SDPLine(type: "o", value: "- \(sessionID) 1 IN IP4 0.0.0.0"),
            SDPLine(type: "s", value: "-"),
            SDPLine(type: "t", value: "0 0"),
        ])
        let bundled = streams.filter(\.isAccepted).map(\.mid)
        answer.attributes.append(SDPAttribute("group", (["BUNDLE"] + bundled).joined(separator: " ")))
        answer.attributes.append(SDPAttribute("msid-semantic", " WMS *"))
        answer.media = sections
        return (answer, streams)
    }

    /// Decides what we take from one offered section.
    static func negotiate(_ section: MediaDescription, mid: String) -> NegotiatedStream {
        switch section.kind {
        case "application":
            guard section.proto.hasSuffix("DTLS/SCTP"), !section.isRejected else {
                return NegotiatedStream(mid: mid, kind: .data, rejection: "unsupported data section \(section.proto)")
            }
            return NegotiatedStream(mid: mid, kind: .data)
        default:
            guard let mediaKind = MediaKind(rawValue: section.kind) else {
                return NegotiatedStream(mid: mid, kind: .data, rejection: "unknown media \(section.kind)")
            }
            let kind = NegotiatedStream.Kind(mediaKind)
            if section.isRejected { return NegotiatedStream(mid: mid, kind: kind, rejection: "rejected by the offerer") }
            // A section the offerer holds (inactive, or recvonly: it would only receive) is
            // accepted as inactive, not rejected: JSEP (RFC 8829 §5.3.1) rejects only what the
            // answerer cannot take, and Janus refuses an answer that rejects a section it keeps
            // for a publisher that unpublished (469 "Error processing SDP"), after which it never
            // offers that publisher's republish.
            let receiving = section.direction == "sendonly" || section.direction == "sendrecv"
            let formats = offeredFormats(of: section).filter { $0.codec.kind == mediaKind }
            // The offer's first codec we can receive, in its preference order; of that codec's
            // formats (H.264 comes once per profile and packetization mode) the one we receive
            // best, the first offered of equal rank.
            for codec in formats.map(\.codec) {
                let ranked = formats.filter { $0.codec == codec }.compactMap { format in
                    codec.receiveRank(formatParameters: section.formatParameters(payloadType: format.map.payloadType))
                        .map { (rank: $0, map: format.map) }
                }
                guard let map = ranked.min(by: { $0.rank < $1.rank })?.map else { continue }
                // RTX (RFC 4588) is not accepted: without it Janus retransmits on the media SSRC,
                // which is what the jitter buffer and NACK logic expect.
                return NegotiatedStream(
                    mid: mid, kind: kind, codec: codec, payloadType: map.payloadType, clockRate: map.clockRate,
                    channels: map.channels ?? 1, rtxPayloadType: nil, ssrcs: section.ssrcs,
                    midExtensionID: section.headerExtensions[midExtension],
                    audioLevelExtensionID: mediaKind == .audio ? section.headerExtensions[audioLevelExtension] : nil, isReceiving: receiving)
            }
            // The m= line's formats by encoding name, once each (several H.264 formats are one codec).
            let maps = section.rtpMaps
            var offered: [String] = []
            for format in section.formats {
                let name = UInt8(format).flatMap { payloadType in maps.first { $0.payloadType == payloadType } }?.encodingName ?? format
                if !offered.contains(name) { offered.append(name) }
            }
            return NegotiatedStream(
                mid: mid, kind: kind, rejection: "no codec we can receive (offered: \(offered.joined(separator: ", ")))")
        }
    }

    /// The section's formats of codecs we know, in the offer's order, with their rtpmap.
    private static func offeredFormats(of section: MediaDescription) -> [(codec: MediaCodec, map: RTPMap)] {
        let maps = section.rtpMaps
        return section.formats.compactMap { format in
            guard let payloadType = UInt8(format), let map = maps.first(where: { $0.payloadType == payloadType }),
                let codec = MediaCodec(encodingName: map.encodingName)
            else { return nil }
            return (codec, map)
        }
    }

    static func answerSection(
        for offered: MediaDescription, stream: NegotiatedStream, local: LocalTransportParameters, carriesCandidates: Bool
    ) -> MediaDescription {
        guard stream.isAccepted else {
            // A rejected section echoes the offer's kind, proto and formats with port 0.
            return MediaDescription(
                kind: offered.kind, port: 0, proto: offered.proto, formats: offered.formats,
                lines: [SDPLine(type: "c", value: "IN IP4 0.0.0.0")], attributes: [SDPAttribute("mid", stream.mid), SDPAttribute("inactive")])
        }
        var attributes: [SDPAttribute] = [
            SDPAttribute("mid", stream.mid),
            SDPAttribute("ice-ufrag", local.iceUfrag),
            SDPAttribute("ice-pwd", local.icePassword),
            SDPAttribute("fingerprint", local.fingerprint.sdpValue),
            SDPAttribute("setup", local.setup),
        ]
        var formats: [String]
        switch stream.kind {
        case .data:
            formats = offered.formats
            attributes.append(SDPAttribute("sctp-port", String(SCTPAssociation.webRTCPort)))
            attributes.append(SDPAttribute("max-message-size", "262144"))
        case .audio, .video:
            guard let payloadType = stream.payloadType, let codec = stream.codec else { return offered }
            formats = [String(payloadType)]
            attributes.append(SDPAttribute(stream.isReceiving ? "recvonly" : "inactive"))
            attributes.append(SDPAttribute("rtcp-mux"))
            attributes.append(SDPAttribute(
                "rtpmap", codec.rtpmap(payloadType: payloadType, clockRate: stream.clockRate, channels: max(stream.channels, 2))))
            if let parameters = offered.formatParameters(payloadType: payloadType) {
                attributes.append(SDPAttribute("fmtp", "\(payloadType) \(parameters)"))
            }
            if stream.kind == .video {
                for feedback in MediaCodec.videoFeedback {
                    attributes.append(SDPAttribute("rtcp-fb", "\(payloadType) \(feedback)"))
                }
            } else {
                attributes.append(SDPAttribute("rtcp-fb", "\(payloadType) nack"))
            }
            if let id = stream.midExtensionID {
                attributes.append(SDPAttribute("extmap", "\(id) \(midExtension)"))
            }
            if let id = stream.audioLevelExtensionID {
                attributes.append(SDPAttribute("extmap", "\(id) \(audioLevelExtension)"))
            }
        }
        if carriesCandidates {
            attributes += local.candidates.map { SDPAttribute("candidate", $0) }
            attributes.append(SDPAttribute("end-of-candidates"))
        }
        return MediaDescription(
            kind: offered.kind, port: 9, proto: offered.proto, formats: formats,
            lines: [SDPLine(type: "c", value: "IN IP4 0.0.0.0")], attributes: attributes)
    }
}
