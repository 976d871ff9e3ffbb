import Agent

extension FuzzTarget {
    /// RTP header, CSRCs, padding and header extensions (RFC 3550 §5.1, RFC 8285), then a header
    /// written from the parsed fields must parse back to the same fields.
    public static let rtp = FuzzTarget(name: "rtp", summary: "RTPHeader.parse, extension elements, MID, write round trip", maxInputLength: 1500) { bytes in
        guard let header = try? RTPHeader.parse(bytes) else { return }
        FuzzCheck.expect(header.payloadRange.lowerBound <= header.payloadRange.upperBound && header.payloadRange.upperBound <= bytes.count,
                         "payload range \(header.payloadRange) outside \(bytes.count) bytes")
        var elements: [RTPHeader.ExtensionElement] = []
        for id in UInt8(0)...15 {
            guard let range = try? header.extensionElement(id: id, in: bytes) else { continue }
            FuzzCheck.expect(range.lowerBound >= 0 && range.upperBound <= bytes.count, "element \(id) at \(range) outside the packet")
            if (1...14).contains(id), (1...16).contains(range.count), header.extensionProfile == RTPHeader.oneByteProfile {
                elements.append(RTPHeader.ExtensionElement(id: id, data: Array(UnsafeRawBufferPointer(rebasing: bytes[range]))))
            }
        }
        _ = try? header.extensionElement(id: 255, in: bytes)
        _ = try? header.mid(extensionID: 1, in: bytes)

        // Written again (without CSRCs and padding, which write does not produce): the same fields.
        var buffer = [UInt8](repeating: 0, count: RTPHeader.length(extensions: elements))
        let written = buffer.withUnsafeMutableBytes { output in
            try? RTPHeader.write(marker: header.marker, payloadType: header.payloadType, sequenceNumber: header.sequenceNumber,
                                 timestamp: header.timestamp, ssrc: header.ssrc, extensions: elements, into: output)
        }
        FuzzCheck.expect(written == buffer.count, "writing \(elements.count) elements gave \(String(describing: written)) of \(buffer.count) bytes")
        let again = buffer.withUnsafeBytes { try? RTPHeader.parse($0) }
        FuzzCheck.expect(again?.marker == header.marker && again?.payloadType == header.payloadType
                         && again?.sequenceNumber == header.sequenceNumber && again?.timestamp == header.timestamp
                         && again?.ssrc == header.ssrc, "written header reads back differently: \(String(describing: again))")
        buffer.withUnsafeBytes { written in
            for element in elements {
                let range = try? again?.extensionElement(id: element.id, in: written)
                // A repeated id finds its first element in both.
                guard let range = range ?? nil, elements.first(where: { $0.id == element.id }) == element else { continue }
                FuzzCheck.expect(Array(UnsafeRawBufferPointer(rebasing: written[range])) == element.data, "element \(element.id) changed")
            }
        }
    }

    /// Compound RTCP (RFC 3550 §6, RFC 4585 §6): every packet written again must parse back equal.
    public static let rtcp = FuzzTarget(name: "rtcp", summary: "RTCPPacket.parseCompound (SR, RR, SDES, BYE, NACK, PLI, FIR), write round trip", maxInputLength: 1500) { bytes in
        guard let packets = try? RTCPPacket.parseCompound(bytes) else { return }
        for packet in packets {
            if case .other = packet { continue }
            var written: [UInt8] = []
            packet.write(into: &written)
            let again = try? RTCPPacket.parseCompound(written)
            // A NACK may name a number twice or out of order; it is written as the set it names.
            if case .nack(let nack) = packet, case .nack(let read)? = again?.first, again?.count == 1 {
                FuzzCheck.expect(read.senderSSRC == nack.senderSSRC && read.mediaSSRC == nack.mediaSSRC
                                 && Set(read.lostSequenceNumbers) == Set(nack.lostSequenceNumbers), "\(nack) reads back as \(read)")
                continue
            }
            FuzzCheck.expect(again == [packet], "\(packet) wrote \(written) which reads back as \(String(describing: again))")
        }
    }
}
