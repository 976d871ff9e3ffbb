import AgentCore
import AgentTransport
import AgentWire

/// Routes the RTP and RTCP of one receiving PeerConnection to a ``ReceiveStream`` per media
/// section, and turns completed frames into ``RemoteFrame``s for the room's sinks.
///
/// Packets are matched to sections by SSRC (announced in the offer, or learned), falling back to
/// the MID header extension (RFC 8843 §15) for SSRCs the offer did not list. Confined to the
/// connection's loop like the connection itself: no locks, no hops per packet.
public final class SubscriptionRouter: @unchecked Sendable {
    // @unchecked Sendable: all state is touched only on `loop` (asserted in each entry point).

    /// One subscribed media section and whose it is.
    public struct Route: Equatable, Sendable {
        public var mid: String
        public var participantID: String
        public var kind: MediaKind
        public var codec: MediaCodec
        public var clockRate: Int
        public var ssrcs: [UInt32]
        public var midExtensionID: UInt8?
        /// RFC 6464's extension id, when negotiated: each frame carries its packet's level.
        public var audioLevelExtensionID: UInt8?

        public init(
            mid: String, participantID: String, kind: MediaKind, codec: MediaCodec, clockRate: Int,
            ssrcs: [UInt32] = [], midExtensionID: UInt8? = nil, audioLevelExtensionID: UInt8? = nil
        ) {
            self.audioLevelExtensionID = audioLevelExtensionID
            self.mid = mid
            self.participantID = participantID
            self.kind = kind
            self.codec = codec
            self.clockRate = clockRate
            self.ssrcs = ssrcs
            self.midExtensionID = midExtensionID
        }
    }

    /// Packets no route claimed, or that a stream refused; counted, never fatal.
    public struct Drops: Equatable, Sendable {
        public var unroutable = 0
        public var refused = 0
    }

    public let loop: EventLoop
    /// The sender SSRC of the first section's RTCP; every other section gets one of its own.
    public let localSSRC: UInt32
    private let clock: any MediaClock
    private let sink: @Sendable (RoomEvent) -> Void
    private var entries: [String: Entry] = [:]
    /// The entries' mids in order, for the timers (no sort, no array, per tick).
    private var sortedMids: [String] = []
    private var midBySSRC: [UInt32: String] = [:]
    public private(set) var drops = Drops()
    /// Sees every packet and route change (a capture for replay); set on the loop, before media.
    private var tap: (any ReceivePacketTap)?

    /// A reference, so the per-packet path mutates the stream in place: a struct copied out of
    /// the dictionary and back would copy the stream's buffers on every packet.
    private final class Entry {
        var route: Route
        var stream: ReceiveStream
        /// The last sequence number of the last frame handed on, to see packets given up between frames.
        var lastSequence: Int64?
        /// Recent packets' RFC 6464 levels (with ``Route/audioLevelExtensionID``).
        var audioLevels = AudioLevelRing()

        init(route: Route, stream: ReceiveStream) {
            self.route = route
            self.stream = stream
        }
    }

    public init(loop: EventLoop, clock: any MediaClock = SystemMediaClock(), localSSRC: UInt32 = UInt32.random(in: 1...UInt32.max),
                sink: @escaping @Sendable (RoomEvent) -> Void) {
        self.loop = loop
        self.clock = clock
        self.localSSRC = localSSRC
        self.sink = sink
    }

    /// Shows the router's input to `tap` from now on (nil: to no one).
    public func setTap(_ tap: (any ReceivePacketTap)?) {
        loop.assertInLoop()
        self.tap = tap
        tap?.routed(routes, at: clock.now())
    }

    /// Replaces the routes after a negotiation. Sections that keep their mid and participant
    /// keep their stream state; the rest start fresh or go away.
    public func update(routes: [Route]) {
        loop.assertInLoop()
        var next: [String: Entry] = [:]
        for route in routes {
            if let existing = entries[route.mid], existing.route.participantID == route.participantID, existing.route.codec == route.codec {
                existing.route = route
                next[route.mid] = existing
            } else {
                // One sender SSRC per section: Janus may tie an SSRC it has seen to one medium of
                // the PeerConnection, and a PLI carried under the audio section's SSRC is dropped
                // as feedback about audio.
                let ssrc = next.isEmpty && entries.isEmpty ? localSSRC : UInt32.random(in: 1...UInt32.max)
                next[route.mid] = Entry(route: route, stream: Self.makeStream(for: route, localSSRC: ssrc))
            }
        }
        entries = next
        sortedMids = next.keys.sorted()
        midBySSRC = midBySSRC.filter { next[$0.value] != nil }
        for route in routes {
            for ssrc in route.ssrcs.prefix(1) { midBySSRC[ssrc] = route.mid }
        }
        tap?.routed(routes, at: clock.now())
    }

    private static func makeStream(for route: Route, localSSRC: UInt32) -> ReceiveStream {
        let configuration = ReceiveStream.Configuration(
            kind: route.kind, clockRate: route.clockRate, localSSRC: localSSRC,
            remoteSSRC: route.ssrcs.first)
        return ReceiveStream(configuration: configuration, depacketizer: route.codec.makeDepacketizer())
    }

    public var routes: [Route] { entries.values.map(\.route) }

    // MARK: Receive

    /// Handles one decrypted RTP packet (from ``PeerConnection/Handlers/onRTP``).
    public func handleRTP(_ header: RTPHeader, _ packet: UnsafeRawBufferPointer) {
        loop.assertInLoop()
        guard let mid = mid(for: header, packet), let entry = entries[mid] else {
            drops.unroutable += 1
            return
        }
        let arrival = clock.now()
        tap?.received(rtp: packet, at: arrival)
        if let id = entry.route.audioLevelExtensionID { entry.audioLevels.record(header, packet, extensionID: id) }
        let frames: [MediaFrame]
        do {
            frames = try entry.stream.receive(packet, header: header, arrival: arrival)
        } catch {
            drops.refused += 1
            return
        }
        emit(frames, from: entry)
    }

    private func mid(for header: RTPHeader, _ packet: UnsafeRawBufferPointer) -> String? {
        if let mid = midBySSRC[header.ssrc] { return mid }
        // An SSRC the offer did not name: learn it from the MID extension, once.
        for entry in entries.values {
            guard let id = entry.route.midExtensionID, let mid = try? header.mid(extensionID: id, in: packet) else { continue }
            guard entries[mid] != nil else { return nil }
            midBySSRC[header.ssrc] = mid
            return mid
        }
        return nil
    }

    /// Handles a decrypted RTCP compound: sender reports map RTP time to wall time.
    public func handleRTCP(_ packets: [RTCPPacket]) {
        loop.assertInLoop()
        let arrival = clock.now()
        for case .senderReport(let report) in packets {
            guard let mid = midBySSRC[report.ssrc], let entry = entries[mid] else { continue }
            tap?.received(senderReport: report, at: arrival)
            entry.stream.receiveRTCP(packets, arrival: arrival)
        }
    }

    /// Runs every stream's timers; returns the RTCP compounds to send (RR, NACK, PLI/FIR).
    public func tick() -> [[UInt8]] {
        loop.assertInLoop()
        let now = clock.now()
        var datagrams: [[UInt8]] = []
        for mid in sortedMids {
            guard let entry = entries[mid] else { continue }
            let result = entry.stream.tick(now: now)
            emit(result.frames, from: entry)
            if var rtcp = result.rtcp {
                SourceDescription(chunks: [.init(source: entry.stream.configuration.localSSRC, cname: "agentd")]).write(into: &rtcp)
                datagrams.append(rtcp)
            }
        }
        return datagrams
    }

    /// Per-section statistics, for stats events and the manifest.
    public func statistics() -> [(route: Route, statistics: ReceiveStreamStatistics)] {
        loop.assertInLoop()
        return entries.keys.sorted().compactMap { mid in entries[mid].map { ($0.route, $0.stream.statistics) } }
    }

    private func emit(_ frames: [MediaFrame], from entry: Entry) {
        guard !frames.isEmpty else { return }
        let mapping = entry.stream.clockMapping
        let bySenderReport = mapping.source == .senderReport
        for frame in frames {
            let wall = mapping.wallNanoseconds(forRTP: frame.rtpTimestamp) ?? frame.completedAt.wallNanoseconds
            let followsLoss = entry.lastSequence.map { frame.firstSequence != $0 + 1 } ?? false
            entry.lastSequence = frame.lastSequence
            sink(.frame(RemoteFrame(
                participantID: entry.route.participantID, kind: entry.route.kind, codec: entry.route.codec,
                bytes: frame.bytes, isKeyframe: frame.isKeyframe, rtpTimestamp: frame.rtpTimestamp,
                clockRate: entry.route.clockRate, wallTimeNanoseconds: wall, mappedBySenderReport: bySenderReport,
                followsLoss: followsLoss, audioLevel: entry.route.audioLevelExtensionID == nil ? nil : entry.audioLevels.level(sequence: frame.firstSequence))))
        }
    }

    /// Asks the sender of a participant's track for a keyframe (PLI, escalating to FIR while
    /// none comes), as after a loss: a decoder restarted on our side (unmute, decode error).
    public func requestKeyframe(participantID: String, kind: MediaKind) {
        loop.assertInLoop()
        let now = clock.now()
        for entry in entries.values where entry.route.participantID == participantID && entry.route.kind == kind {
            entry.stream.requestKeyframe(at: now)
        }
    }
}
