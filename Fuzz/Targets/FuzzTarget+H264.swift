import Agent

extension FuzzTarget {
    /// H.264 over RTP (RFC 6184) and Annex B scanning. The whole input is one RTP payload for the
    /// depacketizer (whose two passes, fragment and Annex B, must agree) and an Annex B stream for
    /// the scanner (whose NAL units must lie in order inside the input, each after a start code,
    /// none empty or ending in a zero byte). Then the first byte picks a payload size and the rest
    /// is an access unit that the packetizer splits and the depacketizer, on its own and through
    /// the jitter buffer, must give back as the scanner read it: every NAL unit a stream may carry
    /// (types 1-23) after a four-byte start code.
    public static let h264 = FuzzTarget(name: "h264", summary: "H264Depacketizer, AnnexBScanner, H264Packetizer → H264DepacketizerAdapter/JitterBuffer round trip", maxInputLength: 4096) { bytes in
        checkPayload(bytes)
        let units = AnnexBScanner.nalUnits(in: bytes)
        var previousEnd = 0
        for unit in units {
            FuzzCheck.expect(unit.lowerBound >= previousEnd + 3 && unit.upperBound <= bytes.count && !unit.isEmpty, "unit \(unit) after \(previousEnd) in \(bytes.count) bytes")
            FuzzCheck.expect(bytes[unit.lowerBound - 3] == 0 && bytes[unit.lowerBound - 2] == 0 && bytes[unit.lowerBound - 1] == 1, "unit \(unit) has no start code before it")
            FuzzCheck.expect(bytes[unit.upperBound - 1] != 0, "unit \(unit) ends in a zero byte")
            previousEnd = unit.upperBound
        }

        var input = FuzzInput(bytes)
        let maxPayloadSize = 3 + Int(input.byte())
        let accessUnit = input.rest()
        let expected = accessUnit.withUnsafeBytes { au in
            AnnexBScanner.nalUnits(in: au).filter { (1...23).contains(H264NALUnitType.bits(of: au[$0.lowerBound])) }
                .flatMap { AnnexBScanner.startCode + Array(au[$0]) }
        }
        let payloads = H264Packetizer(maxPayloadSize: maxPayloadSize).packetize(accessUnit)
        let adapter = H264DepacketizerAdapter()
        var rebuilt: [UInt8] = []
        var fragments: [DepacketizedFragment] = []
        for payload in payloads {
            FuzzCheck.expect(payload.count <= maxPayloadSize, "a payload of \(payload.count) bytes, at most \(maxPayloadSize) asked")
            payload.withUnsafeBytes { bytes in
                do throws(DepacketizerError) {
                    let fragment = try adapter.fragment(of: bytes)
                    fragments.append(fragment)
                    rebuilt += try adapter.frameBytes(of: bytes, fragment: fragment)
                } catch {
                    FuzzCheck.expect(false, "the packetizer wrote \(Array(bytes)), which depacketizes to \(error)")
                }
            }
        }
        FuzzCheck.expect(rebuilt == expected, "the access unit came back changed (\(rebuilt.count) of \(expected.count) bytes)")

        // Through the jitter buffer, when the first payload opens the access unit (a buffer that
        // has seen nothing waits for a start) and all of them fit.
        guard let first = fragments.first, first.startsFrame, let frame = assembledFrame(of: payloads, depacketizer: adapter) else { return }
        FuzzCheck.expect(frame.bytes == expected, "the jitter buffer's frame differs (\(frame.bytes.count) of \(expected.count) bytes)")
        FuzzCheck.expect(frame.isKeyframe == fragments.contains(where: \.isKeyframe), "keyframe flag \(frame.isKeyframe)")
    }

    /// `bytes` as one payload: fragment and Annex B agree on whether it is valid, and the adapter
    /// spans it whole.
    private static func checkPayload(_ bytes: UnsafeRawBufferPointer) {
        let fragment = Result { () throws(H264PayloadError) in try H264Depacketizer.fragment(of: bytes) }
        var annexB: [UInt8] = []
        let written = Result { () throws(H264PayloadError) in try H264Depacketizer.appendAnnexB(of: bytes, to: &annexB) }
        switch (fragment, written) {
        case (.success(let fragment), .success):
            if fragment.structure != .fragment(start: false, end: false), fragment.structure != .fragment(start: false, end: true) {
                FuzzCheck.expect(annexB.starts(with: AnnexBScanner.startCode), "\(fragment.structure) wrote no start code first")
            }
            FuzzCheck.expect(annexB.count <= 2 * bytes.count + 4, "\(bytes.count) bytes grew to \(annexB.count)")
            let adapted = try? H264DepacketizerAdapter().fragment(of: bytes)
            FuzzCheck.expect(adapted?.range == 0..<bytes.count, "the adapter's range \(String(describing: adapted?.range))")
        case (.failure(let parseError), .failure(let writeError)):
            FuzzCheck.expect(parseError == writeError, "fragment threw \(parseError), appendAnnexB \(writeError)")
        default:
            FuzzCheck.expect(false, "fragment \(fragment) and appendAnnexB \(written) disagree")
        }
    }
}
