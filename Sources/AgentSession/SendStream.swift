import AgentCore
import AgentMedia
import AgentWire

/// The send side of one RTP source (one SSRC, one payload type): frames in, RTP packets out,
/// and the RTCP a sender owes its receivers.
///
/// - ``packetize(_:rtpTimestamp:isKeyframe:capturedAt:)`` turns one encoded frame into RTP
///   packets: Opus as one packet per frame (RFC 7587 §4.2), VP8 through ``VP8Packetizer``
///   (RFC 7741) and H.264 access units in Annex B form through ``H264Packetizer`` (RFC 6184),
///   video with the marker on the frame's last packet. Sequence numbers start at a random
///   value (RFC 3550 §5.1) and so does the RTP timestamp offset; the MID header extension
///   (RFC 8843 §15.2) is added when configured. Every packet is kept in a ``SendHistory``.
/// - ``handleRTCP(_:now:)`` answers Generic NACK (RFC 4585 §6.2.1) with the stored packets,
///   byte for byte, and turns PLI/FIR into one keyframe request per interval
///   (``KeyframeRequestGate``).
/// - ``tick(now:)`` returns an SR + SDES CNAME compound (RFC 3550 §6.1, §6.4.1) once per
///   `reportInterval`. Its RTP time is that of the SR's own NTP instant, extrapolated from the
///   ``RTPClockAnchor`` that ties the stream's timestamps to the media clock the frames were
///   captured on, so a receiver can line this stream up with others from the same clock.
///
/// No sockets, threads or clocks: the caller passes time in, and sends what comes back.
public struct SendStream: Sendable {
    public struct Configuration: Sendable {
        /// One whose ``MediaCodec/canPacketize`` is true; the others are refused.
        public var codec: MediaCodec
        public var ssrc: UInt32
        public var payloadType: UInt8
        public var clockRate: Int
        /// RFC 3550 §6.5.1: the stable name that ties this stream to the others of one endpoint.
        public var cname: String
        /// The negotiated id of `urn:ietf:params:rtp-hdrext:sdes:mid` and the MID to send.
        public var midExtension: (id: UInt8, mid: String)?
        /// Largest RTP packet, header included (below a typical path MTU after SRTP, UDP, IP).
        public var maxPacketSize: Int
        /// Nil picks a random one, as RFC 3550 §5.1 asks; tests set it.
        public var initialSequenceNumber: UInt16?
        /// Added to every RTP timestamp on the wire; nil picks a random one (RFC 3550 §5.1).
        public var timestampOffset: UInt32?
        public var initialPictureID: UInt16?
        public var reportInterval: Duration
        /// Send history bounds: packets (rounded up to a power of two) and age.
        public var historyCapacity: Int
        public var historyMaxAge: Duration
        public var keyframeRequestInterval: Duration
        /// A frame whose capture time is this far from where the anchor puts its RTP time moves
        /// the anchor (the source looped, seeked or stalled); smaller drift keeps the anchor.
        public var reanchorThreshold: Duration

        public init(
            codec: MediaCodec, ssrc: UInt32, payloadType: UInt8, clockRate: Int? = nil, cname: String,
            midExtension: (id: UInt8, mid: String)? = nil, maxPacketSize: Int = 1200, initialSequenceNumber: UInt16? = nil,
            timestampOffset: UInt32? = nil, initialPictureID: UInt16? = nil, reportInterval: Duration = .seconds(1),
            historyCapacity: Int = 1024, historyMaxAge: Duration = .seconds(2), keyframeRequestInterval: Duration = .milliseconds(300),
            reanchorThreshold: Duration = .milliseconds(500)
        ) {
            self.codec = codec
            self.ssrc = ssrc
            self.payloadType = payloadType
            self.clockRate = clockRate ?? codec.clockRate
            self.cname = cname
            self.midExtension = midExtension
            self.maxPacketSize = maxPacketSize
            self.initialSequenceNumber = initialSequenceNumber
            self.timestampOffset = timestampOffset
            self.initialPictureID = initialPictureID
            self.reportInterval = reportInterval
            self.historyCapacity = historyCapacity
            self.historyMaxAge = historyMaxAge
            self.keyframeRequestInterval = keyframeRequestInterval
            self.reanchorThreshold = reanchorThreshold
        }
    }

    /// What received RTCP asks of the sender.
    public struct FeedbackResponse: Sendable, Equatable {
        /// Stored packets to send again, in the order asked for.
        public var retransmissions: [[UInt8]] = []
        /// The encoder should make the next frame a keyframe.
        public var keyframeRequested = false
        /// The fraction lost (0...1) a receiver reported for this stream, when one did.
        public var reportedFractionLost: Double?
    }

    public let configuration: Configuration
    public let ssrc: UInt32
    /// The sequence number the next packet gets.
    public private(set) var nextSequenceNumber: UInt16
    public let timestampOffset: UInt32
    public private(set) var clockAnchor: RTPClockAnchor?
    private var history: SendHistory
    private var vp8Packetizer: VP8Packetizer
    private let h264Packetizer: H264Packetizer
    private var keyframeGate: KeyframeRequestGate
    private var extensions: [RTPHeader.ExtensionElement]
    private let headerLength: Int
    private var timestampUnwrapper = SequenceUnwrapper<UInt32>()
    private var lastReportAt: MediaInstant?
    private var counts = SendStreamStatistics()

    public init(configuration: Configuration) throws(SendStreamError) {
        // Packetizing a frame as another codec would send what no receiver can read.
        guard configuration.codec.canPacketize else { throw .unsupportedCodec(configuration.codec) }
        guard configuration.clockRate > 0, configuration.clockRate <= 1_000_000 else {
            throw .invalidClockRate(configuration.clockRate)
        }
        var extensions: [RTPHeader.ExtensionElement] = []
        if let (id, mid) = configuration.midExtension {
            let bytes = Array(mid.utf8)
            guard (1...14).contains(id), (1...16).contains(bytes.count) else {
                throw .invalidMIDExtension(id: id, length: bytes.count)
            }
            extensions.append(.init(id: id, data: bytes))
        }
        let headerLength = RTPHeader.length(extensions: extensions)
        // VP8 needs its 4-byte descriptor plus at least a few bytes of frame per packet.
        guard configuration.maxPacketSize >= headerLength + 8 else { throw .maxPacketSizeTooSmall(configuration.maxPacketSize) }
        self.configuration = configuration
        self.extensions = extensions
        self.headerLength = headerLength
        ssrc = configuration.ssrc
        nextSequenceNumber = configuration.initialSequenceNumber ?? UInt16.random(in: 0...UInt16.max)
        timestampOffset = configuration.timestampOffset ?? UInt32.random(in: 0...UInt32.max)
        history = SendHistory(capacity: configuration.historyCapacity, maxAge: configuration.historyMaxAge)
        vp8Packetizer = VP8Packetizer(
            maxPayloadSize: configuration.maxPacketSize - headerLength,
            initialPictureID: configuration.initialPictureID ?? UInt16.random(in: 0...0x7FFF))
        h264Packetizer = H264Packetizer(maxPayloadSize: configuration.maxPacketSize - headerLength)
        keyframeGate = KeyframeRequestGate(minimumInterval: configuration.keyframeRequestInterval)
    }

    // MARK: - RTP

    /// The RTP packets of one encoded frame, ready to protect and send.
    ///
    /// `rtpTimestamp` is the frame's time on the stream's own timeline (it may start at 0; the
    /// random offset is added here), unwrapped to 64 bits. `capturedAt` is when the frame was
    /// captured or is due on the media clock; it anchors the RTP→NTP mapping of the SRs and
    /// ages the send history.
    public mutating func packetize(_ frame: [UInt8], rtpTimestamp: Int64, isKeyframe: Bool, capturedAt: MediaInstant) -> [[UInt8]] {
        guard !frame.isEmpty else { return [] }
        updateAnchor(rtpTimestamp: rtpTimestamp, capturedAt: capturedAt)
        let wireTimestamp = UInt32(truncatingIfNeeded: rtpTimestamp) &+ timestampOffset
        let payloads: [[UInt8]]
        switch configuration.codec {
        case .opus: payloads = [frame]
        case .vp8: payloads = vp8Packetizer.packetize(frame)
        case .h264: payloads = h264Packetizer.packetize(frame)
        case .vp9: payloads = []  // refused in init
        }
        var packets: [[UInt8]] = []
        packets.reserveCapacity(payloads.count)
        for (index, payload) in payloads.enumerated() {
            // Opus: the marker flags a talkspurt's start (RFC 7587 §4.1); we send no DTX gaps, so
            // it stays clear. Video: it ends the frame (RFC 7741 §4.1, RFC 6184 §5.1).
            let marker = configuration.codec.kind == .video && index == payloads.count - 1
            guard let packet = makePacket(payload: payload, marker: marker, timestamp: wireTimestamp) else { continue }
            history.store(packet, sequenceNumber: nextSequenceNumber, sentAt: capturedAt)
            nextSequenceNumber &+= 1
            counts.packets += 1
            counts.payloadBytes += payload.count
            counts.bytes += packet.count
            packets.append(packet)
        }
        counts.frames += 1
        if isKeyframe { counts.keyframes += 1 }
        return packets
    }

    /// The same with a 32-bit timestamp, unwrapped here (for sources that count in 32 bits).
    public mutating func packetize(_ frame: [UInt8], rtpTimestamp32 rtpTimestamp: UInt32, isKeyframe: Bool, capturedAt: MediaInstant) -> [[UInt8]] {
        packetize(frame, rtpTimestamp: timestampUnwrapper.unwrap(rtpTimestamp), isKeyframe: isKeyframe, capturedAt: capturedAt)
    }

    /// Moves the RTP clock anchor explicitly (e.g. a player starting a new file).
    public mutating func anchorClock(rtpTimestamp: Int64, at instant: MediaInstant) {
        clockAnchor = RTPClockAnchor(rtpTimestamp: rtpTimestamp, instant: instant, clockRate: configuration.clockRate)
    }

    private mutating func updateAnchor(rtpTimestamp: Int64, capturedAt: MediaInstant) {
        guard let anchor = clockAnchor else {
            anchorClock(rtpTimestamp: rtpTimestamp, at: capturedAt)
            return
        }
        let threshold = RTPClockAnchor.ticks(
            nanoseconds: configuration.reanchorThreshold.totalNanoseconds, clockRate: configuration.clockRate)
        let drift = rtpTimestamp - anchor.rtpTimestamp(at: capturedAt)
        if drift > threshold || drift < -threshold {
            counts.reanchors += 1
            anchorClock(rtpTimestamp: rtpTimestamp, at: capturedAt)
        }
    }

    private func makePacket(payload: [UInt8], marker: Bool, timestamp: UInt32) -> [UInt8]? {
        var packet = [UInt8](repeating: 0, count: headerLength + payload.count)
        let written = packet.withUnsafeMutableBytes { buffer in
            // Cannot fail: the buffer is sized for the header and the elements were checked in init.
            try? RTPHeader.write(
                marker: marker, payloadType: configuration.payloadType, sequenceNumber: nextSequenceNumber,
                timestamp: timestamp, ssrc: ssrc, extensions: extensions, into: buffer)
        }
        guard written == headerLength else { return nil }
        packet.replaceSubrange(headerLength..., with: payload)
        return packet
    }

    // MARK: - RTCP in

    /// Takes the RTCP packets of a received compound and returns what they ask for. Feedback
    /// about other SSRCs is ignored.
    public mutating func handleRTCP(_ packets: [RTCPPacket], now: MediaInstant) -> FeedbackResponse {
        var response = FeedbackResponse()
        for packet in packets {
            switch packet {
            case .nack(let nack) where nack.mediaSSRC == ssrc:
                counts.nacksReceived += 1
                resend(nack.lostSequenceNumbers, now: now, into: &response)
            case .pictureLoss(let pli) where pli.mediaSSRC == ssrc:
                counts.plisReceived += 1
                apply(keyframeGate.pictureLoss(at: now), to: &response)
            case .receiverReport(let report):
                take(report.reports, now: now, into: &response)
            case .senderReport(let report):
                take(report.reports, now: now, into: &response)
            case .fullIntraRequest(let fir):
                for entry in fir.entries where entry.ssrc == ssrc {
                    counts.firsReceived += 1
                    apply(
                        keyframeGate.fullIntraRequest(from: fir.senderSSRC, sequenceNumber: entry.sequenceNumber, at: now),
                        to: &response)
                }
            default:
                continue
            }
        }
        return response
    }

    /// Takes the report block about us, if any (RFC 3550 §6.4.1). RTT = arrival − LSR − DLSR, all
    /// in the compact NTP format (1/65536 s), when the block names an SR of ours (LSR ≠ 0).
    private mutating func take(_ blocks: [ReceptionReport], now: MediaInstant, into response: inout FeedbackResponse) {
        for block in blocks where block.ssrc == ssrc {
            counts.receptionReports += 1
            counts.reportedFractionLost = Double(block.fractionLost) / 256
            counts.reportedCumulativeLost = Int(block.cumulativeLost)
            counts.reportedJitter = Int(block.jitter)
            response.reportedFractionLost = counts.reportedFractionLost
            guard block.lastSenderReport != 0 else { continue }
            let arrival = NTPTime.compact(NTPTime.ntp(fromUnixNanoseconds: now.wallNanoseconds))
            let rtt = arrival &- block.lastSenderReport &- block.delaySinceLastSenderReport
            // A negative difference wraps to a huge value: a clock step or a bogus block; skip it.
            guard rtt < 65_536 * 10 else { continue }
            counts.roundTripTime = .nanoseconds(Int64(rtt) * 1_000_000_000 / 65_536)
        }
    }

    private mutating func resend(_ sequenceNumbers: [UInt16], now: MediaInstant, into response: inout FeedbackResponse) {
        var resent = Set<UInt16>()
        for sequenceNumber in sequenceNumbers {
            counts.nackedPackets += 1
            guard let packet = history.packet(sequenceNumber: sequenceNumber, now: now) else {
                counts.nackMisses += 1
                continue
            }
            // One NACK naming a number twice gets one copy.
            guard resent.insert(sequenceNumber).inserted else { continue }
            counts.retransmissions += 1
            counts.retransmittedBytes += packet.count
            response.retransmissions.append(packet)
        }
    }

    private mutating func apply(_ decision: KeyframeRequestGate.Decision, to response: inout FeedbackResponse) {
        switch decision {
        case .request:
            counts.keyframeRequests += 1
            response.keyframeRequested = true
        case .suppressed:
            counts.keyframeRequestsSuppressed += 1
        case .repeated:
            counts.firRepeats += 1
        }
    }

    // MARK: - RTCP out

    /// The SR + SDES compound when one is due at `now`: once a packet has gone out, then every
    /// `reportInterval`.
    public mutating func tick(now: MediaInstant) -> [UInt8]? {
        guard counts.packets > 0 else { return nil }
        if let last = lastReportAt, now - last < configuration.reportInterval { return nil }
        return senderReport(now: now)
    }

    /// An SR + SDES CNAME compound for `now`, whether or not one is due. The NTP field is `now`'s
    /// wall time; the RTP field is the RTP time of the same instant on the stream's wire timeline.
    /// `reports` are reception blocks to carry along (RFC 3550 §6.4.1).
    public mutating func senderReport(now: MediaInstant, reports: [ReceptionReport] = []) -> [UInt8] {
        lastReportAt = now
        counts.senderReports += 1
        let rtpNow = clockAnchor?.rtpTimestamp(at: now) ?? 0
        let report = SenderReport(
            ssrc: ssrc, ntpTime: NTPTime.ntp(fromUnixNanoseconds: now.wallNanoseconds),
            rtpTime: UInt32(truncatingIfNeeded: rtpNow) &+ timestampOffset,
            packetCount: UInt32(truncatingIfNeeded: counts.packets),
            octetCount: UInt32(truncatingIfNeeded: counts.payloadBytes), reports: reports)
        var datagram: [UInt8] = []
        RTCPPacket.senderReport(report).write(into: &datagram)
        RTCPPacket.sourceDescription(SourceDescription(chunks: [.init(source: ssrc, cname: configuration.cname)]))
            .write(into: &datagram)
        return datagram
    }

    // MARK: - Statistics

    public var statistics: SendStreamStatistics { counts }
}
