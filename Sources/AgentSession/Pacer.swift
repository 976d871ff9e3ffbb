import AgentCore

/// Spreads packets out in time instead of sending a frame's packets back to back.
///
/// A keyframe can be dozens of packets; sent in one burst it overflows shallow router queues and
/// the SFU's receive buffer, and the loss lands exactly on the frame everyone waits for. The
/// pacer is a leaky bucket: a byte budget refills at `rate` (capped at `burst` worth of bytes)
/// and a packet may go while the budget is positive, leaving it in debt by at most one packet.
/// So that pacing never becomes latency, the rate rises to whatever drains the queue before its
/// oldest packet has waited `maxQueueDelay`, and a packet that has waited that long goes at once.
/// Retransmissions jump the queue (they answer a loss the receiver waits on) and take the head's
/// deadline, so queue order is also deadline order.
/// The queue is bounded; what does not fit is dropped and counted.
///
/// A plain value like the rest of this folder: the caller passes time in, calls ``poll(now:)``
/// at ``nextSendTime(now:)`` and sends what it returns.
public struct Pacer: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Pacing rate in bits per second, usually a few times the media bitrate.
        public var rate: Int
        /// How much may go out at once after an idle moment.
        public var burst: Duration
        /// The longest a packet may wait; the rate rises to meet it.
        public var maxQueueDelay: Duration
        public var capacity: Int

        public init(rate: Int = 10_000_000, burst: Duration = .milliseconds(5), maxQueueDelay: Duration = .milliseconds(50), capacity: Int = 1024) {
            self.rate = min(max(rate, 8_000), 1_000_000_000)
            self.burst = burst
            self.maxQueueDelay = max(maxQueueDelay, .milliseconds(1))
            self.capacity = max(capacity, 1)
        }
    }

    public struct Counters: Equatable, Sendable {
        public var packets = 0
        public var bytes = 0
        /// Packets refused because the queue was full.
        public var dropped = 0
    }

    public let configuration: Configuration
    public private(set) var counters = Counters()
    /// Bytes that may still go; negative while in debt.
    private var budget: Double
    private var lastRefill: MediaInstant?
    private struct Entry: Sendable {
        var packet: [UInt8]
        var enqueuedAt: MediaInstant
    }

    private var queue: [Entry] = []
    private var head = 0
    private var queuedBytes = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        budget = Self.bytes(at: Double(configuration.rate), over: configuration.burst)
    }

    public var queuedPackets: Int { queue.count - head }

    /// Queues packets in order; `retransmission` puts them before everything queued. Returns how
    /// many did not fit.
    @discardableResult
    public mutating func enqueue(_ packets: [[UInt8]], retransmission: Bool = false, now: MediaInstant) -> Int {
        let room = configuration.capacity - queuedPackets
        let accepted = packets.prefix(max(room, 0))
        let dropped = packets.count - accepted.count
        counters.dropped += dropped
        queuedBytes += accepted.reduce(0) { $0 + $1.count }
        if retransmission {
            let deadline = head < queue.count ? min(queue[head].enqueuedAt, now) : now
            queue.replaceSubrange(head..<head, with: accepted.map { Entry(packet: $0, enqueuedAt: deadline) })
        } else {
            queue.append(contentsOf: accepted.map { Entry(packet: $0, enqueuedAt: now) })
        }
        return dropped
    }

    /// The packets that may go at `now`, in order.
    public mutating func poll(now: MediaInstant) -> [[UInt8]] {
        refill(now: now)
        var out: [[UInt8]] = []
        while head < queue.count, budget > 0 || now - queue[head].enqueuedAt >= configuration.maxQueueDelay {
            let packet = queue[head].packet
            head += 1
            budget -= Double(packet.count)
            queuedBytes -= packet.count
            counters.packets += 1
            counters.bytes += packet.count
            out.append(packet)
        }
        // Compact once the sent prefix dominates, so memory stays bounded by the capacity.
        if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return out
    }

    /// When ``poll(now:)`` will next release a packet: `now` if it can now, nil if the queue is empty.
    public func nextSendTime(now: MediaInstant) -> MediaInstant? {
        guard head < queue.count else { return nil }
        var probe = self
        probe.refill(now: now)
        if probe.budget > 0 { return now }
        let seconds = (-probe.budget + 1) * 8 / probe.effectiveRate(now: now)
        let byBudget = now + .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
        return min(byBudget, queue[head].enqueuedAt + configuration.maxQueueDelay)
    }

    /// The configured rate, or the one that empties the queue by the head's deadline.
    private func effectiveRate(now: MediaInstant) -> Double {
        guard head < queue.count else { return Double(configuration.rate) }
        let remaining = max(configuration.maxQueueDelay - (now - queue[head].enqueuedAt), .milliseconds(1))
        return max(Double(configuration.rate), Double(queuedBytes) * 8 / Self.seconds(remaining))
    }

    private mutating func refill(now: MediaInstant) {
        defer { lastRefill = max(lastRefill ?? now, now) }
        guard let last = lastRefill, now > last else { return }
        let rate = effectiveRate(now: now)
        let cap = max(Self.bytes(at: rate, over: configuration.burst), 1)
        budget = min(budget + Self.bytes(at: rate, over: now - last), cap)
    }

    private static func seconds(_ duration: Duration) -> Double { Double(duration.totalNanoseconds) / 1e9 }

    private static func bytes(at rate: Double, over duration: Duration) -> Double { rate / 8 * seconds(duration) }
}
