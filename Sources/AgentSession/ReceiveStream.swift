import AgentCore
import AgentWire

/// The receive side of one RTP source (one SSRC): packets in, frames and RTCP feedback out.
///
/// Each packet goes through small named steps: parse, check the SSRC, validate and unwrap the
/// sequence number, unwrap the timestamp, update RFC 3550 statistics and the clock mapping, tell
/// the NACK generator and keyframe requester, then the jitter buffer. ``tick(now:)`` runs the
/// timers and returns one compound RTCP datagram (RR first, then NACK and PLI/FIR, as RFC 4585
/// §3.1 requires) when there is something to say. No sockets, threads or clocks: the caller
/// passes time in.
public struct ReceiveStream: Sendable {
    public struct Configuration: Sendable {
        public var kind: MediaKind
        public var clockRate: Int
        /// SSRC our RTCP is sent from.
        public var localSSRC: UInt32
        /// The media SSRC; nil takes the first packet's.
        public var remoteSSRC: UInt32?
        /// Whether the session negotiated `nack` (RFC 4585) for this stream.
        public var nackEnabled: Bool
        /// How often an RR with a report block goes out (only while the source is heard:
        /// RFC 3550 §6.4 reports on sources heard since the last report).
        public var reportInterval: Duration
        /// Keyframe requests pause when no packet came for this long: a silent sender (muted,
        /// gone) cannot answer, and FIRs into the void only cost bandwidth.
        public var inactivityTimeout: Duration
        /// RFC 3550 A.1: jumps beyond these are held on probation instead of accepted.
        public var maxDropout: Int64
        public var maxMisorder: Int64
        public var jitterBuffer: JitterBuffer.Configuration
        public var nack: NACKGenerator.Configuration
        public var keyframes: KeyframeRequester.Configuration

        public init(
            kind: MediaKind, clockRate: Int, localSSRC: UInt32, remoteSSRC: UInt32? = nil, nackEnabled: Bool = true,
            reportInterval: Duration = .seconds(1), inactivityTimeout: Duration = .seconds(2), maxDropout: Int64 = 3000, maxMisorder: Int64 = 100,
            jitterBuffer: JitterBuffer.Configuration = .init(), nack: NACKGenerator.Configuration = .init(),
            keyframes: KeyframeRequester.Configuration = .init()
        ) {
            self.kind = kind
            self.clockRate = clockRate
            self.localSSRC = localSSRC
            self.remoteSSRC = remoteSSRC
            self.nackEnabled = nackEnabled
            self.reportInterval = reportInterval
            self.inactivityTimeout = inactivityTimeout
            self.maxDropout = maxDropout
            self.maxMisorder = maxMisorder
            self.jitterBuffer = jitterBuffer
            self.nack = nack
            self.keyframes = keyframes
        }
    }

    /// What a timer pass produced: frames released by a give-up, and RTCP to send.
    public struct TickResult: Sendable {
        public var frames: [MediaFrame] = []
        /// One compound RTCP datagram, or nil when nothing is due.
        public var rtcp: [UInt8]?
    }

    public let configuration: Configuration
    public private(set) var remoteSSRC: UInt32?
    public private(set) var reception: ReceptionStatistics
    public private(set) var clockMapping: SenderClockMapping
    public private(set) var jitterBuffer: JitterBuffer
    private var nackGenerator: NACKGenerator?
    private var keyframeRequester: KeyframeRequester?
    private var sequenceUnwrapper = SequenceUnwrapper<UInt16>()
    private var timestampUnwrapper = SequenceUnwrapper<UInt32>()
    /// Added to unwrapped sequence numbers after a restart; always a multiple of 65536, so the
    /// low 16 bits stay the wire value (NACKs name wire values).
    private var sequenceOffset: Int64 = 0
    private var highestSequence: Int64?
    private var probationSequence: UInt16?
    private var lastReportAt: MediaInstant?
    private var packetsAtLastReport = 0
    private var lastPacketAt: MediaInstant?
    private var counts = ReceiveStreamStatistics()
    /// Frames completed while flushing for a restart, handed out with the next result.
    private var releasedFrames: [MediaFrame] = []

    public init(configuration: Configuration, depacketizer: any Depacketizer) {
        self.configuration = configuration
        remoteSSRC = configuration.remoteSSRC
        reception = ReceptionStatistics(clockRate: configuration.clockRate)
        clockMapping = SenderClockMapping(clockRate: configuration.clockRate)
        jitterBuffer = JitterBuffer(depacketizer: depacketizer, configuration: configuration.jitterBuffer)
        if let remoteSSRC = configuration.remoteSSRC { makeFeedbackGenerators(mediaSSRC: remoteSSRC) }
    }

    // MARK: - RTP

    public mutating func receive(_ packet: [UInt8], arrival: MediaInstant) throws(ReceiveStreamError) -> [MediaFrame] {
        let result = packet.withUnsafeBytes { bytes in
            Result { () throws(ReceiveStreamError) in try receive(bytes, arrival: arrival) }
        }
        return try result.get()
    }

    /// Takes one RTP packet (SRTP already removed) and returns the frames it completed.
    public mutating func receive(_ packet: UnsafeRawBufferPointer, arrival: MediaInstant) throws(ReceiveStreamError) -> [MediaFrame] {
        let header: RTPHeader
        do {
            header = try RTPHeader.parse(packet)
        } catch {
            counts.malformed += 1
            throw .malformed(error)
        }
        return try receive(packet, header: header, arrival: arrival)
    }

    /// The same, for a packet whose header the caller already parsed (the router does, to route
    /// it), so the receive path parses each packet once.
    public mutating func receive(_ packet: UnsafeRawBufferPointer, header: RTPHeader, arrival: MediaInstant) throws(ReceiveStreamError)
        -> [MediaFrame]
    {
        try acceptSSRC(header.ssrc)
        let sequence = try validatedSequence(header.sequenceNumber, arrival: arrival)
        let timestamp = timestampUnwrapper.unwrap(header.timestamp)

        counts.packets += 1
        counts.bytes += header.payloadRange.count
        if counts.firstPacketAt == nil { counts.firstPacketAt = arrival }
        lastPacketAt = max(lastPacketAt ?? arrival, arrival)
        reception.packetReceived(sequence: sequence, rtpTimestamp: timestamp, arrival: arrival)
        clockMapping.packetArrived(rtpTimestamp: timestamp, wallNanoseconds: arrival.wallNanoseconds)
        let requested = nackGenerator?.received(sequence, at: arrival) ?? false
        keyframeRequester?.packetReceived(at: arrival)

        let payload = UnsafeRawBufferPointer(rebasing: packet[header.payloadRange])
        let result = jitterBuffer.insert(
            sequence: sequence, timestamp: timestamp, marker: header.marker, payload: payload, arrival: arrival,
            requested: requested)
        var frames = releasedFrames
        releasedFrames.removeAll()
        handle(jitterBuffer.drain(now: arrival), now: arrival, into: &frames)
        if case .malformed(let error) = result {
            counts.malformed += 1
            // Frames this packet released (by spoiling its own frame) go out with the next call.
            releasedFrames = frames
            throw .malformedPayload(error)
        }
        return frames
    }

    private mutating func acceptSSRC(_ ssrc: UInt32) throws(ReceiveStreamError) {
        guard let expected = remoteSSRC else {
            remoteSSRC = ssrc
            makeFeedbackGenerators(mediaSSRC: ssrc)
            return
        }
        guard ssrc == expected else {
            counts.malformed += 1
            throw .unexpectedSSRC(ssrc)
        }
    }

    /// RFC 3550 A.1's validation on unwrapped numbers: a jump beyond maxDropout ahead or
    /// maxMisorder behind is dropped and remembered; if the very next packet follows it, the
    /// sender restarted, and the stream continues from there.
    private mutating func validatedSequence(_ wire: UInt16, arrival: MediaInstant) throws(ReceiveStreamError) -> Int64 {
        var candidate = sequenceUnwrapper
        let sequence = candidate.unwrap(wire) + sequenceOffset
        guard let highest = highestSequence else {
            sequenceUnwrapper = candidate
            highestSequence = sequence
            return sequence
        }
        let distance = sequence - highest
        if distance <= configuration.maxDropout, distance >= -configuration.maxMisorder {
            sequenceUnwrapper = candidate
            highestSequence = max(highest, sequence)
            probationSequence = nil
            return sequence
        }
        if let probation = probationSequence, wire == probation &+ 1 {
            return restart(at: wire, after: highest, arrival: arrival)
        }
        probationSequence = wire
        counts.sequenceJumps += 1
        throw .sequenceJump(distance: distance)
    }

    private mutating func restart(at wire: UInt16, after highest: Int64, arrival: MediaInstant) -> Int64 {
        counts.restarts += 1
        probationSequence = nil
        sequenceUnwrapper = SequenceUnwrapper<UInt16>()
        let raw = sequenceUnwrapper.unwrap(wire)
        // The smallest value above `highest` whose low 16 bits are `wire`.
        let ahead = ((raw - highest) % 65536 + 65536) % 65536
        let sequence = highest + (ahead == 0 ? 65536 : ahead)
        sequenceOffset = sequence - raw
        highestSequence = sequence
        nackGenerator?.reset()
        var flushed = releasedFrames
        handle(jitterBuffer.flush(), now: arrival, into: &flushed)
        releasedFrames = flushed
        reception = ReceptionStatistics(clockRate: configuration.clockRate)
        return sequence
    }

    private mutating func makeFeedbackGenerators(mediaSSRC: UInt32) {
        if configuration.nackEnabled {
            nackGenerator = NACKGenerator(senderSSRC: configuration.localSSRC, mediaSSRC: mediaSSRC, configuration: configuration.nack)
        }
        if configuration.kind == .video {
            keyframeRequester = KeyframeRequester(
                senderSSRC: configuration.localSSRC, mediaSSRC: mediaSSRC, configuration: configuration.keyframes)
        }
    }

    private mutating func handle(_ outputs: [JitterBuffer.Output], now: MediaInstant, into frames: inout [MediaFrame]) {
        for output in outputs {
            switch output {
            case .frame(let frame):
                if counts.firstFrameAt == nil { counts.firstFrameAt = frame.completedAt }
                if frame.isKeyframe {
                    if counts.firstKeyframeAt == nil { counts.firstKeyframeAt = frame.completedAt }
                    keyframeRequester?.keyframeReceived(at: frame.completedAt)
                }
                frames.append(frame)
            case .loss(let loss):
                // A video decoder cannot continue past a hole; audio conceals it (PLC).
                if loss.missingPackets > 0 || loss.discardedPackets > 0 { keyframeRequester?.frameLost(at: now) }
            }
        }
    }

    /// Wants a keyframe from the sender (video only), as after a frame was given up: the next
    /// ticks send PLI, then FIR, until one arrives.
    public mutating func requestKeyframe(at now: MediaInstant) {
        keyframeRequester?.frameLost(at: now)
    }

    // MARK: - RTCP

    /// Takes the RTCP packets of a received compound; SRs from this source update LSR and the
    /// RTP→wall mapping.
    public mutating func receiveRTCP(_ packets: [RTCPPacket], arrival: MediaInstant) {
        for case .senderReport(let report) in packets where report.ssrc == remoteSSRC {
            reception.senderReportReceived(ntpTime: report.ntpTime, at: arrival)
            // Unwrap next to the stream's timestamps without moving its reference.
            var probe = timestampUnwrapper
            clockMapping.senderReportReceived(ntpTime: report.ntpTime, rtpTimestamp: probe.unwrap(report.rtpTime))
        }
    }

    /// Runs the timers at `now`: gives up frames waited on too long, and returns RTCP when a
    /// report, a NACK or a keyframe request is due.
    public mutating func tick(now: MediaInstant) -> TickResult {
        var result = TickResult(frames: releasedFrames)
        releasedFrames.removeAll()
        handle(jitterBuffer.drain(now: now), now: now, into: &result.frames)
        var feedback: [RTCPPacket] = []
        if let nack = nackGenerator?.tick(now: now) { feedback.append(.nack(nack)) }
        if let lastPacketAt, now - lastPacketAt < configuration.inactivityTimeout,
            let request = keyframeRequester?.tick(now: now)
        {
            feedback.append(request)
        }

        let heard = counts.packets > packetsAtLastReport
        let reportDue = heard && (lastReportAt.map { now - $0 >= configuration.reportInterval } ?? true)
        guard reportDue || !feedback.isEmpty else { return result }
        var blocks: [ReceptionReport] = []
        // Feedback goes with a report block too: Janus drops a compound whose RR has none (it
        // finds the stream by the block), so a PLI, FIR or NACK alone never reached a sender.
        if reportDue || !feedback.isEmpty, let remoteSSRC {
            blocks.append(reception.makeReport(ssrc: remoteSSRC, now: now))
            lastReportAt = now
            packetsAtLastReport = counts.packets
        }
        var datagram: [UInt8] = []
        RTCPPacket.receiverReport(ReceiverReport(ssrc: configuration.localSSRC, reports: blocks)).write(into: &datagram)
        for packet in feedback { packet.write(into: &datagram) }
        result.rtcp = datagram
        return result
    }

    // MARK: - Statistics

    public var statistics: ReceiveStreamStatistics {
        var snapshot = counts
        let buffer = jitterBuffer.counters
        snapshot.lost = buffer.lost
        snapshot.recovered = buffer.recovered
        snapshot.duplicates = buffer.duplicates
        snapshot.late = buffer.late
        snapshot.frames = buffer.frames
        snapshot.keyframes = buffer.keyframes
        snapshot.frameLosses = buffer.lossEvents
        snapshot.nacks = nackGenerator?.counters.nacksSent ?? 0
        snapshot.nackedPackets = nackGenerator?.counters.requests ?? 0
        snapshot.plis = keyframeRequester?.counters.plis ?? 0
        snapshot.firs = keyframeRequester?.counters.firs ?? 0
        snapshot.cumulativeLost = reception.cumulativeLost
        snapshot.jitterRTPUnits = reception.jitter
        snapshot.jitterSeconds = reception.jitterSeconds
        return snapshot
    }

    /// The NACK generator's RTT estimate feeds its retry interval; set it from RTCP XR or SR/RR.
    public mutating func updateRoundTripTime(_ rtt: Duration) {
        nackGenerator?.updateRoundTripTime(rtt)
    }
}
