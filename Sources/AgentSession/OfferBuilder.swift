import AgentCore
import AgentTransport
import AgentWire

/// Writes our SDP offer for publishing (RFC 8829 §5.2): one send-only section per local track
/// (one format per codec it offers, see ``TrackOffer/alternatives``) and optionally a data
/// section, all bundled on one transport (RFC 8843), as a Janus publisher handle expects (the
/// client offers, Janus answers).
public enum OfferBuilder {
    /// The MID header extension id we offer (RFC 8843 §15.2).
    public static let midExtensionID: UInt8 = 1

    public static func offer(
        tracks: [TrackOffer], dataMid: String?, local: LocalTransportParameters, cname: String = "agentd",
        sessionID: UInt64 = UInt64.random(in: 1...UInt64(Int64.max))
    ) -> SessionDescription {
        var sections: [MediaDescription] = []
        for track in tracks {
            var attributes: [SDPAttribute] = [SDPAttribute("mid", track.mid)] + transport(local) + [
                SDPAttribute("sendonly"), SDPAttribute("rtcp-mux"),
                SDPAttribute("extmap", "\(midExtensionID) \(AnswerBuilder.midExtension)"),
            ]
            // One format per codec the track can send, in our order (RFC 8866 §5.14).
            let formats = track.offeredFormats
            for (codec, payloadType) in formats {
                attributes.append(SDPAttribute("rtpmap", codec.rtpmap(payloadType: payloadType)))
                if let parameters = codec.offerFormatParameters {
                    attributes.append(SDPAttribute("fmtp", "\(payloadType) \(parameters)"))
                }
                for feedback in codec.offerFeedback {
                    attributes.append(SDPAttribute("rtcp-fb", "\(payloadType) \(feedback)"))
                }
            }
            attributes.append(SDPAttribute("ssrc", "\(track.ssrc) cname:\(cname)"))
            attributes.append(SDPAttribute("msid", "\(cname) \(cname)-\(track.mid)"))
            sections.append(MediaDescription(
                kind: track.kind.rawValue, port: 9, proto: "UDP/TLS/RTP/SAVPF", formats: formats.map { String($0.payloadType) },
                lines: [SDPLine(type: "c", value: "IN IP4 0.0.0.0")], attributes: attributes))
        }
        if let dataMid {
            sections.append(MediaDescription(
                kind: "application", port: 9, proto: "UDP/DTLS/SCTP", formats: ["webrtc-datachannel"],
                lines: [SDPLine(type: "c", value: "IN IP4 0.0.0.0")],
                attributes: [SDPAttribute("mid", dataMid)] + transport(local) + [
                    SDPAttribute("sctp-port", String(SCTPAssociation.webRTCPort)), SDPAttribute("max-message-size", "262144"),
                ]))
        }
        if !sections.isEmpty {
            sections[0].attributes += local.candidates.map { SDPAttribute("candidate", $0) } + [SDPAttribute("end-of-candidates")]
        }
        var offer = SessionDescription(lines: [
            SDPLine(type: "o", value: "- \(sessionID) 1 IN IP4 0.0.0.0"),
            SDPLine(type: "s", value: "-"),
            SDPLine(type: "t", value: "0 0"),
        ])
        offer.attributes.append(SDPAttribute("group", (["BUNDLE"] + sections.compactMap(\.mid)).joined(separator: " ")))
        offer.attributes.append(SDPAttribute("msid-semantic", " WMS \(cname)"))
        offer.media = sections
        return offer
    }

    private static func transport(_ local: LocalTransportParameters) -> [SDPAttribute] {
        [
            SDPAttribute("ice-ufrag", local.iceUfrag), SDPAttribute("ice-pwd", local.icePassword),
            SDPAttribute("fingerprint", local.fingerprint.sdpValue), SDPAttribute("setup", local.setup),
        ]
    }
}
