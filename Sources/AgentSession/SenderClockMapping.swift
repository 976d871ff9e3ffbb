import AgentCore
import Foundation

/// Maps one stream's unwrapped RTP timestamps to wall-clock time, which is what lines up audio
/// with video and one participant with another.
///
/// Two mappings are kept, and both are exposed so the recorder can write them to the manifest:
/// - arrival-based: the first packet's RTP timestamp is pinned to its local arrival time. It is
///   all there is before the first RTCP Sender Report, and it carries that packet's network delay.
/// - sender-based: each SR (RFC 3550 §6.4.1) pins an RTP timestamp to the sender's NTP time,
///   the sender's own view of "now" for that RTP time; the latest SR wins.
///
/// ``wallNanoseconds(forRTP:)`` uses the SR mapping once there is one. Times are nanoseconds
/// since 1970-01-01 UTC; RTP times are the 64-bit unwrapped ones, so a 32-bit wrap (every
/// 13.25 h at 90 kHz) changes nothing.
public struct SenderClockMapping: Sendable {
    /// An RTP timestamp and the wall time it corresponds to.
    public struct Anchor: Equatable, Sendable {
        public var rtpTimestamp: Int64
        public var wallNanoseconds: Int64

        public init(rtpTimestamp: Int64, wallNanoseconds: Int64) {
            self.rtpTimestamp = rtpTimestamp
            self.wallNanoseconds = wallNanoseconds
        }
    }

    public enum Source: Equatable, Sendable {
        case none
        case arrival
        case senderReport
    }

    public let clockRate: Int
    public private(set) var arrivalAnchor: Anchor?
    public private(set) var senderReportAnchor: Anchor?
    public private(set) var senderReportCount = 0

    public init(clockRate: Int) {
        self.clockRate = max(clockRate, 1)
    }

    /// Which mapping ``wallNanoseconds(forRTP:)`` uses now.
    public var source: Source {
        if senderReportAnchor != nil { return .senderReport }
        return arrivalAnchor == nil ? .none : .arrival
    }

    /// Pins the first packet's timestamp to its arrival; later packets change nothing.
    public mutating func packetArrived(rtpTimestamp: Int64, wallNanoseconds: Int64) {
        if arrivalAnchor == nil {
            arrivalAnchor = Anchor(rtpTimestamp: rtpTimestamp, wallNanoseconds: wallNanoseconds)
        }
    }

    /// Takes an SR's NTP time and its RTP timestamp, already unwrapped next to the stream's.
    public mutating func senderReportReceived(ntpTime: UInt64, rtpTimestamp: Int64) {
        senderReportAnchor = Anchor(rtpTimestamp: rtpTimestamp, wallNanoseconds: NTPTime.unixNanoseconds(fromNTP: ntpTime))
        senderReportCount += 1
    }

    /// Wall time of `rtp` with the best mapping available, or nil before any packet or SR.
    public func wallNanoseconds(forRTP rtp: Int64) -> Int64? {
        senderBasedWallNanoseconds(forRTP: rtp) ?? arrivalBasedWallNanoseconds(forRTP: rtp)
    }

    public func arrivalBasedWallNanoseconds(forRTP rtp: Int64) -> Int64? {
        arrivalAnchor.map { map(rtp, from: $0) }
    }

    public func senderBasedWallNanoseconds(forRTP rtp: Int64) -> Int64? {
        senderReportAnchor.map { map(rtp, from: $0) }
    }

    /// ``wallNanoseconds(forRTP:)`` as a `Date`.
    public func date(forRTP rtp: Int64) -> Date? {
        wallNanoseconds(forRTP: rtp).map { Date(timeIntervalSince1970: Double($0) / 1e9) }
    }

    /// anchor.wall + (rtp - anchor.rtp) / clockRate, split into whole seconds and a remainder so
    /// the nanosecond product cannot overflow; saturates instead of trapping on absurd input.
    private func map(_ rtp: Int64, from anchor: Anchor) -> Int64 {
        let (delta, overflow) = rtp.subtractingReportingOverflow(anchor.rtpTimestamp)
        guard !overflow else { return rtp < anchor.rtpTimestamp ? .min : .max }
        let rate = Int64(clockRate)
        let (seconds, remainder) = delta.quotientAndRemainder(dividingBy: rate)
        let (secondsNanoseconds, overflowSeconds) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflowSeconds else { return delta < 0 ? .min : .max }
        let (offset, overflowOffset) = secondsNanoseconds.addingReportingOverflow(remainder * 1_000_000_000 / rate)
        guard !overflowOffset else { return delta < 0 ? .min : .max }
        let (wall, overflowWall) = anchor.wallNanoseconds.addingReportingOverflow(offset)
        guard !overflowWall else { return offset < 0 ? .min : .max }
        return wall
    }
}
