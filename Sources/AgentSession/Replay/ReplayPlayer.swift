import AgentCore
import AgentTransport
import AgentWire
import Foundation

/// The loop side of an ``RTPReplay``: moves the clock, runs the router's timers, applies the
/// capture's route changes and hands each delivery to the router. Confined to the replay's loop.
///
/// It also plays the senders' part in loss recovery, as far as a capture can: the receive path's
/// NACKs are answered after ``roundTripNanoseconds`` with the captured packet again (lost at the
/// same rate, with the same jitter, as any packet); PLIs and FIRs are counted, and go unanswered,
/// since no encoder is there to make a keyframe.
final class ReplayPlayer: @unchecked Sendable {
    // @unchecked Sendable: touched only on the replay's loop (submit), one step at a time.

    private let session: CapturedSession
    private let router: SubscriptionRouter
    private let clock: ManualMediaClock
    private let tickNanoseconds: Int64
    private let sink: @Sendable (RoomEvent) -> Void
    private let schedule: ReplaySchedule
    private let srtp: SRTPContext?
    /// Where each delivery is copied (and unprotected, rewritten): no allocation per packet.
    private var scratch: UnsafeMutableRawBufferPointer
    private var drift: DriftRewriter
    private var counters = RTPReplay.Counters()
    private var now: Int64 = 0
    private var nextTick: Int64 = 0
    private var nextDelivery = 0
    private var nextRouteChange = 0
    private var tracks: Set<TrackKey> = []
    /// The record of each captured RTP packet by SSRC and sequence number, for NACKs.
    private let recordsBySequence: [UInt64: Int]
    /// Retransmissions due, in time order.
    private var retransmissions: [ReplaySchedule.Delivery] = []
    private var recoveryRandom: SeededRandom
    private let impairments: ReplayImpairments

    /// How long a NACK takes to be answered.
    static let roundTripNanoseconds: Int64 = 30_000_000
    private var joined: [String: String] = [:]

    private struct TrackKey: Hashable {
        var participantID: String
        var kind: MediaKind
    }

    init(session: CapturedSession, impairments: ReplayImpairments, srtp: SRTPContext?, router: SubscriptionRouter, clock: ManualMediaClock,
         tickNanoseconds: Int64, sink: @escaping @Sendable (RoomEvent) -> Void) {
        self.session = session
        self.srtp = srtp
        self.impairments = impairments
        recoveryRandom = SeededRandom(state: impairments.seed ^ 0x5EED_5EED_5EED_5EED)
        var bySequence: [UInt64: Int] = [:]
        for (index, record) in session.records.enumerated() where !record.isRTCP {
            guard let header = record.bytes.withUnsafeBytes({ try? RTPHeader.parse($0) }) else { continue }
            bySequence[UInt64(header.ssrc) << 16 | UInt64(header.sequenceNumber)] = index
        }
        recordsBySequence = bySequence
        scratch = .allocate(byteCount: RTPDumpRecord.maximumPacketLength, alignment: 16)
        self.router = router
        self.clock = clock
        self.tickNanoseconds = max(1_000_000, tickNanoseconds)
        self.sink = sink
        schedule = ReplaySchedule(offsetsMilliseconds: session.records.map(\.offsetMilliseconds),
                                  isRTCP: session.records.map(\.isRTCP), impairments: impairments)
        let videoSSRCs = session.description.routeChanges.flatMap(\.routes).filter { $0.kind == .video }.flatMap(\.ssrcs)
        drift = DriftRewriter(ssrcs: Set(videoSSRCs), drift: impairments.videoDrift)
        counters.lost = schedule.counters.lost
        counters.reordered = schedule.counters.reordered
        counters.duplicated = schedule.counters.duplicated
    }

    deinit {
        scratch.deallocate()
    }

    /// Everyone of the capture joins at its start.
    func begin() {
        for participant in session.description.participants {
            join(participant.id, display: participant.display)
        }
    }

    /// Plays every delivery and timer up to `until` ns of capture time.
    func play(until: Int64) {
        while true {
            let scheduled = nextDelivery < schedule.deliveries.count ? schedule.deliveries[nextDelivery] : nil
            let resent = retransmissions.first
            let delivery: ReplaySchedule.Delivery
            if let resent, scheduled.map({ resent.atNanoseconds < $0.atNanoseconds }) ?? true {
                guard resent.atNanoseconds <= until else { break }
                delivery = resent
                retransmissions.removeFirst()
                counters.retransmitted += 1
            } else if let scheduled, scheduled.atNanoseconds <= until {
                delivery = scheduled
                nextDelivery += 1
            } else {
                break
            }
            advance(to: delivery.atNanoseconds)
            deliver(session.records[delivery.record])
        }
        advance(to: until)
    }

    /// Everyone leaves; the figures.
    func end() -> RTPReplay.Counters {
        let at = Date(timeIntervalSince1970: Double(clock.now().wallNanoseconds) / 1e9)
        for key in tracks.sorted(by: { ($0.participantID, $0.kind.rawValue) < ($1.participantID, $1.kind.rawValue) }) {
            sink(.trackRemoved(participantID: key.participantID, kind: key.kind))
        }
        tracks.removeAll()
        for id in joined.keys.sorted() { sink(.participantLeft(id: id, at: at)) }
        joined.removeAll()
        router.update(routes: [])
        counters.unroutable = router.drops.unroutable
        counters.refused = router.drops.refused
        return counters
    }

    /// Timer runs in a row with nothing delivered before the rest of a silence is skipped: by
    /// then every jitter buffer has given up and every timer is idle, and a capture with hours
    /// (or a hostile offset of weeks) between packets must not take hours of ticks.
    static let idleTicks: Int64 = 1000

    /// How long the player ticks through a silence, for `tick` nanoseconds between ticks.
    static func idleNanoseconds(tick: Int64) -> Int64 {
        idleTicks * max(1_000_000, tick)
    }

    /// When the next delivery, retransmission or route change is due (ns of capture time).
    var nextEventNanoseconds: Int64? {
        let changes = session.description.routeChanges
        return [nextDelivery < schedule.deliveries.count ? schedule.deliveries[nextDelivery].atNanoseconds : nil,
                retransmissions.first?.atNanoseconds,
                nextRouteChange < changes.count ? changes[nextRouteChange].atMilliseconds * 1_000_000 : nil].compactMap { $0 }.min()
    }

    /// Moves the clock to `target`, running the timers (and route changes) due on the way.
    private func advance(to target: Int64) {
        let idleLimit = nextTick + Self.idleTicks * tickNanoseconds
        if target > idleLimit {
            advance(to: idleLimit)
            nextTick += (target - nextTick) / tickNanoseconds * tickNanoseconds
        }
        while true {
            applyRouteChanges(through: min(target, nextTick))
            guard nextTick <= target else { break }
            move(to: nextTick)
            for datagram in router.tick() { answer(datagram) }
            nextTick += tickNanoseconds
        }
        move(to: target)
        applyRouteChanges(through: target)
    }

    /// What a sender does with the receive path's feedback: resends what a NACK names (when the
    /// capture has it), counts keyframe requests.
    private func answer(_ datagram: [UInt8]) {
        guard let packets = datagram.withUnsafeBytes({ try? RTCPPacket.parseCompound($0) }) else { return }
        for packet in packets {
            switch packet {
            case .nack(let nack):
                for sequence in nack.lostSequenceNumbers {
                    counters.nacked += 1
                    let lose = Double.random(in: 0..<1, using: &recoveryRandom) < impairments.loss
                    let jitter = impairments.jitter.totalNanoseconds
                    let delay = Self.roundTripNanoseconds + (jitter > 0 ? Int64.random(in: 0...jitter, using: &recoveryRandom) : 0)
                    guard !lose, let record = recordsBySequence[UInt64(nack.mediaSSRC) << 16 | UInt64(sequence)] else { continue }
                    let resend = ReplaySchedule.Delivery(atNanoseconds: now + delay, record: record)
                    let index = retransmissions.firstIndex { $0.atNanoseconds > resend.atNanoseconds } ?? retransmissions.endIndex
                    retransmissions.insert(resend, at: index)
                }
            case .pictureLoss, .fullIntraRequest:
                counters.keyframeRequests += 1
            default:
                break
            }
        }
    }

    private func move(to target: Int64) {
        guard target > now else { return }
        clock.advance(by: .nanoseconds(target - now))
        now = target
    }

    private func applyRouteChanges(through time: Int64) {
        let changes = session.description.routeChanges
        while nextRouteChange < changes.count, changes[nextRouteChange].atMilliseconds * 1_000_000 <= time {
            let change = changes[nextRouteChange]
            nextRouteChange += 1
            let routes = change.routes.compactMap { try? $0.route() }
            var current: Set<TrackKey> = []
            for route in routes {
                if joined[route.participantID] == nil { join(route.participantID, display: route.participantID) }
                current.insert(TrackKey(participantID: route.participantID, kind: route.kind))
            }
            for gone in tracks.subtracting(current) { sink(.trackRemoved(participantID: gone.participantID, kind: gone.kind)) }
            router.update(routes: routes)
            for route in routes where !tracks.contains(TrackKey(participantID: route.participantID, kind: route.kind)) {
                sink(.trackAdded(participantID: route.participantID, kind: route.kind, codec: route.codec))
            }
            tracks = current
        }
    }

    private func join(_ id: String, display: String) {
        joined[id] = display
        sink(.participantJoined(id: id, display: display, at: Date(timeIntervalSince1970: Double(clock.now().wallNanoseconds) / 1e9)))
    }

    private func deliver(_ record: RTPDumpRecord) {
        guard record.bytes.count <= scratch.count else {
            counters.unparsable += 1
            return
        }
        var length = record.bytes.withUnsafeBytes { bytes in
            scratch.copyMemory(from: bytes)
            return bytes.count
        }
        if let srtp {
            do {
                length = record.isRTCP ? try srtp.unprotectRTCP(in: scratch, length: length) : try srtp.unprotectRTP(in: scratch, length: length)
            } catch {
                counters.unprotectFailures += 1
                return
            }
        }
        let packet = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<length])
        if record.isRTCP {
            drift.rewriteSenderReport(packet)
            guard let packets = try? RTCPPacket.parseCompound(UnsafeRawBufferPointer(packet)) else {
                counters.unparsable += 1
                return
            }
            counters.senderReports += 1
            router.handleRTCP(packets)
            return
        }
        drift.rewriteRTP(packet)
        guard let header = try? RTPHeader.parse(UnsafeRawBufferPointer(packet)) else {
            counters.unparsable += 1
            return
        }
        counters.rtpDelivered += 1
        router.handleRTP(header, UnsafeRawBufferPointer(packet))
    }
}
