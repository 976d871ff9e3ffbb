import AgentCore
import AgentWire

/// Decides which lost packets to ask for again with Generic NACK (RFC 4585 §6.2.1) and when.
///
/// It watches the unwrapped sequence numbers of one stream. A gap makes the skipped numbers
/// "missing"; each is asked for only after `reorderTolerance` (most gaps are reordering and fill
/// themselves), then again every retry interval (the round-trip time, floored) up to
/// `maxRetries` more times, and dropped as lost after the last try or at `maxAge`. Memory is
/// bounded: at most `capacity` numbers are tracked, so a jump of 30000 tracks the newest ones
/// and counts the rest as lost at once.
public struct NACKGenerator: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var reorderTolerance: Duration
        /// Used for the retry interval until ``NACKGenerator/updateRoundTripTime(_:)`` is called.
        public var initialRoundTripTime: Duration
        /// The retry interval never goes below this, however short the RTT.
        public var minimumRetryInterval: Duration
        /// Requests after the first one.
        public var maxRetries: Int
        /// A number missing for this long is no longer worth asking for.
        public var maxAge: Duration
        public var capacity: Int

        public init(
            reorderTolerance: Duration = .milliseconds(20), initialRoundTripTime: Duration = .milliseconds(100),
            minimumRetryInterval: Duration = .milliseconds(20), maxRetries: Int = 2, maxAge: Duration = .milliseconds(500),
            capacity: Int = 256
        ) {
            self.reorderTolerance = reorderTolerance
            self.initialRoundTripTime = initialRoundTripTime
            self.minimumRetryInterval = minimumRetryInterval
            self.maxRetries = max(maxRetries, 0)
            self.maxAge = maxAge
            self.capacity = max(capacity, 1)
        }
    }

    public struct Counters: Equatable, Sendable {
        /// NACK packets produced.
        public var nacksSent = 0
        /// Sequence numbers requested, retries included.
        public var requests = 0
        /// Requested packets that then arrived.
        public var recovered = 0
        /// Missing packets that arrived before any request (reordering).
        public var reordered = 0
        /// Missing packets given up on, or never tracked because the gap was too large.
        public var lost = 0
    }

    private struct Missing: Sendable {
        var detectedAt: MediaInstant
        var lastSentAt: MediaInstant?
        var sends = 0
    }

    public let configuration: Configuration
    public let senderSSRC: UInt32
    public let mediaSSRC: UInt32
    public private(set) var counters = Counters()
    public private(set) var roundTripTime: Duration
    private var missing: [Int64: Missing] = [:]
    private var highest: Int64?

    public init(senderSSRC: UInt32, mediaSSRC: UInt32, configuration: Configuration = Configuration()) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.configuration = configuration
        roundTripTime = configuration.initialRoundTripTime
    }

    /// Sequence numbers currently waited for, ascending.
    public var missingSequences: [Int64] { missing.keys.sorted() }

    public var retryInterval: Duration { max(roundTripTime, configuration.minimumRetryInterval) }

    public mutating func updateRoundTripTime(_ rtt: Duration) {
        if rtt > .zero { roundTripTime = rtt }
    }

    /// Records an arrival. Returns true when the packet had been asked for (it is a recovery).
    @discardableResult
    public mutating func received(_ sequence: Int64, at now: MediaInstant) -> Bool {
        guard let last = highest else {
            highest = sequence
            return false
        }
        if sequence <= last {
            guard let entry = missing.removeValue(forKey: sequence) else { return false }
            if entry.sends > 0 {
                counters.recovered += 1
                return true
            }
            counters.reordered += 1
            return false
        }
        highest = sequence
        let gap = sequence - last - 1
        guard gap > 0 else { return false }
        let capacity = Int64(configuration.capacity)
        let tracked = min(gap, capacity)
        counters.lost += Int(gap - tracked)
        for lostSequence in (sequence - tracked)..<sequence {
            missing[lostSequence] = Missing(detectedAt: now)
        }
        evictOldest(keeping: configuration.capacity)
        return false
    }

    /// The NACK to send at `now`, if any number is due for a first request or a retry.
    public mutating func tick(now: MediaInstant) -> GenericNACK? {
        var due: [Int64] = []
        var expired: [Int64] = []
        for (sequence, entry) in missing {
            if now - entry.detectedAt >= configuration.maxAge {
                expired.append(sequence)
            } else if let lastSent = entry.lastSentAt {
                guard now - lastSent >= retryInterval else { continue }
                if entry.sends > configuration.maxRetries {
                    expired.append(sequence)
                } else {
                    due.append(sequence)
                }
            } else if now - entry.detectedAt >= configuration.reorderTolerance {
                due.append(sequence)
            }
        }
        for sequence in expired { missing[sequence] = nil }
        counters.lost += expired.count
        guard !due.isEmpty else { return nil }
        due.sort()
        for sequence in due {
            missing[sequence]?.lastSentAt = now
            missing[sequence]?.sends += 1
        }
        counters.nacksSent += 1
        counters.requests += due.count
        return GenericNACK(
            senderSSRC: senderSSRC, mediaSSRC: mediaSSRC,
            lostSequenceNumbers: due.map { UInt16(truncatingIfNeeded: $0) })
    }

    /// Forgets everything tracked (stream restart); what was missing is counted lost.
    public mutating func reset() {
        counters.lost += missing.count
        missing.removeAll()
        highest = nil
    }

    private mutating func evictOldest(keeping limit: Int) {
        guard missing.count > limit else { return }
        let excess = missing.keys.sorted().prefix(missing.count - limit)
        for sequence in excess { missing[sequence] = nil }
        counters.lost += excess.count
    }
}
