import AgentCore
import AgentWire

/// The receiver-side figures of one RTP source that go into an RR report block (RFC 3550
/// §6.4.1): packets expected and lost (Appendix A.3), interarrival jitter (Appendix A.8) and
/// the echo of the last SR (LSR/DLSR).
///
/// Sequence numbers come in already unwrapped to 64 bits, so "cycles" (A.1) are just the high
/// bits. Every packet that passed validation counts as received, duplicates included, as A.3
/// does; the cumulative loss can therefore go negative.
public struct ReceptionStatistics: Sendable {
    /// RTP clock rate of the payload (90000 for video, 48000 for Opus).
    public let clockRate: Int
    public private(set) var baseSequence: Int64?
    public private(set) var highestSequence: Int64?
    public private(set) var received = 0
    /// Interarrival jitter in RTP timestamp units, the smoothed |D(i-1,i)| of A.8.
    public private(set) var jitter: Double = 0
    private var expectedPrior = 0
    private var receivedPrior = 0
    private var previousTransit: Double?
    private var arrivalOrigin: Int64?
    private var lastSenderReport: (compactNTP: UInt32, arrival: MediaInstant)?

    public init(clockRate: Int) {
        self.clockRate = max(clockRate, 1)
    }

    /// Packets expected from the first to the highest sequence number (A.3).
    public var expected: Int {
        guard let baseSequence, let highestSequence else { return 0 }
        return Int(highestSequence - baseSequence + 1)
    }

    /// Expected minus received (A.3); negative when duplicates outnumber losses.
    public var cumulativeLost: Int { expected - received }

    /// The report block's "extended highest sequence number": 16 bits of cycles, 16 of sequence.
    public var extendedHighestSequence: UInt32 { UInt32(truncatingIfNeeded: highestSequence ?? 0) }

    public var jitterSeconds: Double { jitter / Double(clockRate) }

    /// Counts a packet and updates jitter from its RTP timestamp and arrival time.
    public mutating func packetReceived(sequence: Int64, rtpTimestamp: Int64, arrival: MediaInstant) {
        if baseSequence == nil { baseSequence = sequence }
        highestSequence = max(highestSequence ?? sequence, sequence)
        received += 1

        // A.8: transit = arrival - timestamp, both in RTP units; D = difference of transits.
        // Arrival is taken relative to the first packet so the Double keeps full precision.
        let origin = arrivalOrigin ?? arrival.monotonicNanoseconds
        arrivalOrigin = origin
        let arrivalUnits = Double(arrival.monotonicNanoseconds &- origin) * Double(clockRate) / 1e9
        let transit = arrivalUnits - Double(rtpTimestamp)
        if let previousTransit {
            let difference = abs(transit - previousTransit)
            jitter += (difference - jitter) / 16
        }
        previousTransit = transit
    }

    /// Remembers an SR's NTP time and when it arrived, for the next report's LSR and DLSR.
    public mutating func senderReportReceived(ntpTime: UInt64, at arrival: MediaInstant) {
        lastSenderReport = (NTPTime.compact(ntpTime), arrival)
    }

    /// The report block for `ssrc` at `now`. Starts a new interval for "fraction lost" (A.3), so
    /// call it once per RR sent.
    public mutating func makeReport(ssrc: UInt32, now: MediaInstant) -> ReceptionReport {
        let expectedInterval = expected - expectedPrior
        let receivedInterval = received - receivedPrior
        expectedPrior = expected
        receivedPrior = received
        let lostInterval = expectedInterval - receivedInterval
        let fraction: UInt8 =
            expectedInterval <= 0 || lostInterval <= 0 ? 0 : UInt8(min(255, (lostInterval << 8) / expectedInterval))

        var lastSR: UInt32 = 0
        var delay: UInt32 = 0
        if let report = lastSenderReport {
            lastSR = report.compactNTP
            // DLSR is in units of 1/65536 s.
            let elapsed = max(0, now.monotonicNanoseconds - report.arrival.monotonicNanoseconds)
            delay = UInt32(clamping: Int64(1_000_000_000).dividingFullWidth(elapsed.multipliedFullWidth(by: 65536)).quotient)
        }
        // Hostile timestamps can make the Double huge; clamp before converting so it never traps.
        let reportedJitter = jitter.isFinite && jitter < Double(UInt32.max) ? UInt32(max(0, jitter)) : UInt32.max
        return ReceptionReport(
            ssrc: ssrc, fractionLost: fraction, cumulativeLost: Int32(clamping: cumulativeLost),
            extendedHighestSequence: extendedHighestSequence, jitter: reportedJitter,
            lastSenderReport: lastSR, delaySinceLastSenderReport: delay)
    }
}
