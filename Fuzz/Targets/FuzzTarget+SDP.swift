import Agent

extension FuzzTarget {
    /// Session descriptions as Janus sends them (RFC 8866), and everything that reads one: the
    /// attribute accessors, the answer builder, the remote ICE/DTLS parameters, candidates and
    /// fingerprints. A description must read back equal from the text it writes.
    public static let sdp = FuzzTarget(name: "sdp", summary: "SessionDescription.parse, accessors, AnswerBuilder, RemoteTransportParameters, write round trip", maxInputLength: 8192) { bytes in
        guard let description = try? SessionDescription.parse(String(decoding: bytes, as: UTF8.self)) else { return }
        _ = description.bundleGroup
        for index in -1...description.media.count {
            _ = description.attribute("ice-ufrag", media: index)
        }
        for section in description.media {
            _ = section.mid
            _ = section.direction
            _ = section.isRejected
            _ = section.rtpMaps.map(\.attributeValue)
            _ = section.headerExtensions
            _ = section.ssrcs
            for format in section.formats { _ = UInt8(format).map(section.formatParameters(payloadType:)) }
            for candidate in section.attributes(named: "candidate") { _ = try? ICECandidate(sdpAttribute: "candidate:" + candidate) }
            for fingerprint in section.attributes(named: "fingerprint") { _ = try? DTLSFingerprint(sdpValue: fingerprint) }
        }
        for fingerprint in description.attributes(named: "fingerprint") { _ = try? DTLSFingerprint(sdpValue: fingerprint) }
        _ = try? RemoteTransportParameters(offer: description)
        if let local, let answer = try? AnswerBuilder.answer(to: description, local: local, sessionID: 1) {
            FuzzCheck.expect(answer.streams.count == description.media.count, "\(answer.streams.count) streams for \(description.media.count) sections")
            FuzzCheck.expect((try? SessionDescription.parse(answer.answer.text)) == answer.answer, "our answer does not read back")
        }
        let tracks = [TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 1),
                      TrackOffer(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 2)]
        _ = OfferBuilder.tracksRefused(by: description, offered: tracks)

        let again = try? SessionDescription.parse(description.text)
        FuzzCheck.expect(again == description, "the written description reads back differently:\n\(description.text)")
    }

    /// `a=candidate:` values (RFC 8839 §5.1), as SDP and trickle messages carry them; a parsed
    /// candidate must read back equal from its own text.
    public static let iceCandidate = FuzzTarget(name: "ice-candidate", summary: "ICECandidate(sdpAttribute:), DTLSFingerprint(sdpValue:), round trips", maxInputLength: 512) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        if let candidate = try? ICECandidate(sdpAttribute: text) {
            let again = try? ICECandidate(sdpAttribute: candidate.sdpAttribute)
            FuzzCheck.expect(again == candidate, "\(candidate.sdpAttribute) reads back as \(String(describing: again))")
        }
        if let fingerprint = try? DTLSFingerprint(sdpValue: text) {
            FuzzCheck.expect((try? DTLSFingerprint(sdpValue: fingerprint.sdpValue)) == fingerprint, "\(fingerprint) does not read back")
        }
    }

    /// Our side of an answer: any valid values do (a 32-byte digest is a valid SHA-256 one).
    private static let local: LocalTransportParameters? = (try? DTLSFingerprint(algorithm: .sha256, digest: [UInt8](repeating: 0xAB, count: 32))).map {
        LocalTransportParameters(iceUfrag: "fuzz", icePassword: "fuzzfuzzfuzzfuzzfuzzfu", candidates: ["candidate:1 1 UDP 1 10.77.0.1 9 typ host"],
                                 fingerprint: $0, setup: "active")
    }
}
