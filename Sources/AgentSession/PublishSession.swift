import AgentCore
import AgentTransport
import AgentWire

/// The sending half of a publishing PeerConnection: one ``SendStream`` per offered track,
/// packets protected and sent on the loop, NACKs answered from the send history, PLI/FIR turned
/// into keyframe requests, and sender reports (with SDES) every second.
///
/// Confined to the connection's loop, like the connection: call it through `loop.execute` /
/// `loop.submit`, or from the loop's handlers.
public final class PublishSession: @unchecked Sendable {
    // @unchecked Sendable: every mutable property is touched only on `peer.loop` (asserted).

    public let peer: PeerConnection
    private var streams: [String: SendStream] = [:]
    private let clock: any MediaClock
    private var timer: LoopTimer?
    /// Called on the loop when a receiver asks a video track for a keyframe (by mid).
    public var onKeyframeRequest: (String) -> Void = { _ in }
    /// Called on the loop with the fraction lost (0...1) a receiver reported for a track (by mid),
    /// e.g. to tune the Opus encoder's FEC to the path.
    public var onReceptionReport: (String, Double) -> Void = { _, _ in }
    public private(set) var sendErrors = 0

    /// - Parameter tracks: the tracks of our offer; each gets a SendStream with its SSRC, payload
    ///   type and MID extension.
    public init(peer: PeerConnection, tracks: [TrackOffer], cname: String = "agentd", clock: any MediaClock = SystemMediaClock())
        throws(SendStreamError)
    {
        self.peer = peer
        self.clock = clock
        for track in tracks {
            // The track's own codec: SendStream refuses one it cannot packetize (VP9), which a
            // map onto its codecs would have sent as VP8.
            streams[track.mid] = try SendStream(configuration: .init(
                codec: track.codec, ssrc: track.ssrc, payloadType: track.payloadType, clockRate: track.clockRate, cname: cname,
                midExtension: (OfferBuilder.midExtensionID, track.mid)))
        }
    }

    /// Starts answering the receiver's RTCP (after whatever handler the connection already has)
    /// and the sender-report timer. Call on the loop once the connection is up.
    public func start(reportCheckInterval: Duration = .milliseconds(100)) {
        peer.loop.assertInLoop()
        let previous = peer.handlers.onRTCP
        peer.handlers.onRTCP = { [weak self] packets in
            previous(packets)
            self?.handleRTCP(packets)
        }
        timer = peer.loop.scheduleRepeating(every: reportCheckInterval) { [weak self] in self?.tick() }
    }

    public func stop() {
        timer?.cancel()
        timer = nil
    }

    /// Packetizes and sends one encoded frame on track `mid`. `rtpTimestamp` counts in the
    /// track's clock from the start of the media (the stream adds its random offset).
    public func send(frame: [UInt8], mid: String, rtpTimestamp: Int64, isKeyframe: Bool) {
        peer.loop.assertInLoop()
        // Mutated in place through the subscript: copying a SendStream out and back would copy
        // its send history (a thousand packet references) on every frame.
        let now = clock.now()
        guard let packets = streams[mid]?.packetize(frame, rtpTimestamp: rtpTimestamp, isKeyframe: isKeyframe, capturedAt: now)
        else { return }
        for packet in packets { send(packet) }
    }

    /// Handles RTCP from the receiver (``start(reportCheckInterval:)`` wires it to the
    /// connection): NACKs resend, PLI/FIR request keyframes.
    public func handleRTCP(_ packets: [RTCPPacket]) {
        peer.loop.assertInLoop()
        let now = clock.now()
        for mid in streams.keys.sorted() {
            guard let response = streams[mid]?.handleRTCP(packets, now: now) else { continue }
            for packet in response.retransmissions { send(packet) }
            if response.keyframeRequested { onKeyframeRequest(mid) }
            if let fraction = response.reportedFractionLost { onReceptionReport(mid, fraction) }
        }
    }

    public func statistics(mid: String) -> SendStreamStatistics? {
        peer.loop.assertInLoop()
        return streams[mid]?.statistics
    }

    private func tick() {
        let now = clock.now()
        for mid in streams.keys.sorted() {
            if let report = streams[mid]?.tick(now: now) {
                do { try peer.sendRTCP(bytes: report) } catch { sendErrors += 1 }
            }
        }
    }

    private func send(_ packet: [UInt8]) {
        do { try peer.sendRTP(packet) } catch { sendErrors += 1 }
    }
}
