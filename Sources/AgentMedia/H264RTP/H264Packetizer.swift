/// Splits one H.264 access unit, given in Annex B form (three- or four-byte start codes), into
/// RTP payloads (RFC 6184, packetization-mode 1) of at most `maxPayloadSize` bytes, in
/// decoding order (§6.3): the layouts are those of ``H264Depacketizer``.
///
/// NAL units are taken in order. Consecutive ones that fit a payload together go into one
/// STAP-A (§5.7.1), typically SPS + PPS before an IDR slice; a NAL unit that fits but has no
/// neighbour to share with goes alone as a single NAL unit packet (§5.6); one larger than a
/// payload is cut into FU-A pieces (§5.8) of near equal size. The RTP marker belongs on the last
/// payload of the access unit (§5.1), which the caller sets.
///
/// Units of types 0 and 24-31 are not NAL units a stream may carry (they are RFC 6184 packet
/// types, or unspecified) and are left out rather than sent as something a receiver would
/// misread.
public struct H264Packetizer: Sendable {
    public let maxPayloadSize: Int

    /// The FU indicator and FU header before each piece of a fragmented NAL unit.
    static let fragmentationOverhead = 2
    /// The STAP-A header byte.
    static let aggregationHeaderSize = 1
    /// The size field before each NAL unit in a STAP-A.
    static let aggregationSizeFieldSize = 2

    /// `maxPayloadSize` is raised to 3, the least that carries a byte of a fragmented NAL unit.
    public init(maxPayloadSize: Int = 1200) {
        self.maxPayloadSize = max(maxPayloadSize, Self.fragmentationOverhead + 1)
    }

    /// The payloads of one access unit, in order; the last one gets the RTP marker bit.
    public func packetize(_ accessUnit: [UInt8]) -> [[UInt8]] {
        accessUnit.withUnsafeBytes { bytes in
            let units = AnnexBScanner.nalUnits(in: bytes).filter { (1...23).contains(H264NALUnitType.bits(of: bytes[$0.lowerBound])) }
            var payloads: [[UInt8]] = []
            var index = 0
            while index < units.count {
                let unit = units[index]
                guard unit.count <= maxPayloadSize else {
                    appendFragments(of: UnsafeRawBufferPointer(rebasing: bytes[unit]), to: &payloads)
                    index += 1
                    continue
                }
                // As many of the following units as fit one STAP-A with this one.
                var aggregated = Self.aggregationHeaderSize + Self.aggregationSizeFieldSize + unit.count
                var end = index + 1
                while end < units.count, units[end].count <= UInt16.max,
                    aggregated + Self.aggregationSizeFieldSize + units[end].count <= maxPayloadSize
                {
                    aggregated += Self.aggregationSizeFieldSize + units[end].count
                    end += 1
                }
                if end - index == 1 || unit.count > UInt16.max {
                    payloads.append(Array(UnsafeRawBufferPointer(rebasing: bytes[unit])))
                    index += 1
                } else {
                    payloads.append(aggregation(of: units[index..<end], in: bytes, size: aggregated))
                    index = end
                }
            }
            return payloads
        }
    }

    /// One STAP-A: F is set if any unit's F is, NRI is the largest of theirs (§5.7).
    private func aggregation(of units: ArraySlice<Range<Int>>, in bytes: UnsafeRawBufferPointer, size: Int) -> [UInt8] {
        var forbidden: UInt8 = 0
        var referenceIndicator: UInt8 = 0
        for unit in units {
            forbidden |= bytes[unit.lowerBound] & 0x80
            referenceIndicator = max(referenceIndicator, bytes[unit.lowerBound] & 0x60)
        }
        var payload: [UInt8] = []
        payload.reserveCapacity(size)
        payload.append(forbidden | referenceIndicator | H264NALUnitType.stapA.rawValue)
        for unit in units {
            payload.append(UInt8(truncatingIfNeeded: unit.count >> 8))
            payload.append(UInt8(truncatingIfNeeded: unit.count))
            payload.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[unit]))
        }
        return payload
    }

    /// FU-A pieces of `unit` (header byte and payload, longer than a packet). The header byte is
    /// not sent: its F and NRI go in each FU indicator, its type in each FU header.
    private func appendFragments(of unit: UnsafeRawBufferPointer, to payloads: inout [[UInt8]]) {
        guard let header = unit.first else { return }
        let body = UnsafeRawBufferPointer(rebasing: unit[1...])
        let room = maxPayloadSize - Self.fragmentationOverhead
        let count = (body.count + room - 1) / room
        guard count > 0 else { return }
        // Equal pieces (the first ones one byte longer) rather than full ones and a runt.
        let base = body.count / count
        let longer = body.count % count
        let indicator = (header & 0xE0) | H264NALUnitType.fuA.rawValue
        var offset = 0
        for piece in 0..<count {
            let length = base + (piece < longer ? 1 : 0)
            var fuHeader = H264NALUnitType.bits(of: header)
            if piece == 0 { fuHeader |= 0x80 }
            if piece == count - 1 { fuHeader |= 0x40 }
            var payload: [UInt8] = []
            payload.reserveCapacity(Self.fragmentationOverhead + length)
            payload.append(indicator)
            payload.append(fuHeader)
            payload.append(contentsOf: UnsafeRawBufferPointer(rebasing: body[offset..<offset + length]))
            payloads.append(payload)
            offset += length
        }
    }
}
