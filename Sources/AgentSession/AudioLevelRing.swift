import AgentWire

/// The RFC 6464 audio level of each recent audio packet, by sequence number, so the frame the
/// jitter buffer later hands on (one Opus packet, one frame) can carry its packet's level.
///
/// A fixed ring of ``capacity`` slots, written on receive and read on emit: no allocation per
/// packet, and a packet held in the jitter buffer longer than ``capacity`` packets (2.5 s of
/// 20 ms audio) just loses its level.
struct AudioLevelRing {
    static let capacity = 128
    private var sequences = [UInt16](repeating: 0, count: capacity)
    private var levels = [UInt8](repeating: 0, count: capacity)
    private var filled = [Bool](repeating: false, count: capacity)

    /// Stores the level element `extensionID` of `header`'s packet, if it has a well-formed one
    /// (one byte of data; a malformed extension block is ignored, the packet still counts).
    mutating func record(_ header: RTPHeader, _ packet: UnsafeRawBufferPointer, extensionID: UInt8) {
        guard let range = try? header.extensionElement(id: extensionID, in: packet), range.count >= 1 else { return }
        let slot = Int(header.sequenceNumber) % Self.capacity
        sequences[slot] = header.sequenceNumber
        levels[slot] = packet[range.lowerBound]
        filled[slot] = true
    }

    /// The level of the packet with (unwrapped) sequence number `sequence`, if recorded.
    func level(sequence: Int64) -> UInt8? {
        let number = UInt16(truncatingIfNeeded: sequence)
        let slot = Int(number) % Self.capacity
        return filled[slot] && sequences[slot] == number ? levels[slot] : nil
    }
}
