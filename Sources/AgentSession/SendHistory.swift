import AgentCore

/// The packets one ``SendStream`` sent recently, kept so a Generic NACK (RFC 4585 §6.2.1) can be
/// answered with the very same bytes.
///
/// A ring indexed by the wire sequence number modulo a power of two: 65536 is a multiple of the
/// capacity, so a number keeps its slot across the 16-bit wrap, and a slot is only trusted when
/// it holds that exact number and is younger than `maxAge`. Memory is bounded by `capacity`
/// packets whatever the send rate; at high rates the capacity, at low rates the age, is what
/// limits the history (a NACK older than a couple of round trips arrives too late to help anyway).
public struct SendHistory: Sendable {
    private struct Entry: Sendable {
        var sequenceNumber: UInt16
        var sentAt: MediaInstant
        var packet: [UInt8]
    }

    public let capacity: Int
    public let maxAge: Duration
    private var slots: [Entry?]

    /// `capacity` is rounded up to a power of two between 16 and 32768.
    public init(capacity: Int = 1024, maxAge: Duration = .seconds(2)) {
        var rounded = 16
        while rounded < min(capacity, 32768) { rounded *= 2 }
        self.capacity = rounded
        self.maxAge = maxAge
        slots = Array(repeating: nil, count: rounded)
    }

    public mutating func store(_ packet: [UInt8], sequenceNumber: UInt16, sentAt: MediaInstant) {
        slots[slot(of: sequenceNumber)] = Entry(sequenceNumber: sequenceNumber, sentAt: sentAt, packet: packet)
    }

    /// The packet sent with `sequenceNumber`, if it is still held and not older than `maxAge`.
    public func packet(sequenceNumber: UInt16, now: MediaInstant) -> [UInt8]? {
        guard let entry = slots[slot(of: sequenceNumber)], entry.sequenceNumber == sequenceNumber,
            now - entry.sentAt <= maxAge
        else { return nil }
        return entry.packet
    }

    private func slot(of sequenceNumber: UInt16) -> Int { Int(sequenceNumber) & (capacity - 1) }
}
