import AgentCore

/// The reorder buffer of one RTP stream: it holds packets by unwrapped sequence number until
/// their frame is complete, then hands out whole frames in sequence order.
///
/// It is a plain state machine: ``insert(sequence:timestamp:marker:payload:arrival:requested:)``
/// stores a packet, ``drain(now:)`` returns what became ready (frames, or a ``FrameLoss`` when it
/// gave up on a frame). It never reads a clock and never blocks.
///
/// A frame is the packets from one that starts a frame (as the ``Depacketizer`` says) up to one
/// that ends it: marker bit, or the codec says so, or the next packet has another timestamp or
/// (unless the codec's ``Depacketizer/frameStartEndsPreviousFrame`` is false, as for H.264)
/// starts a new frame. Its bytes are what the depacketizer makes of each payload, in order, and
/// it is a keyframe when any of its payloads says so. Frames come out in order; a frame with a
/// hole waits at most `maxWait` (counted from the arrival of the oldest packet held) and is then
/// given up: the buffer skips to the next frame start (for H.264, the next one with another
/// timestamp) and reports the loss, so the caller can ask for a keyframe. Memory is bounded by `capacity` packets; a packet that would need more forces the
/// oldest frames out the same way. Until the first frame is out, the first packets may still be
/// reordered (or the stream joined mid-frame), so the head can move back and a head that does
/// not start a frame is waited on until a later frame start shows the start is really gone.
///
/// A payload the depacketizer refuses is kept as an unusable placeholder: its sequence number
/// is accounted for (nothing waits for it), but its frame is given up at once.
public struct JitterBuffer: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Most packets held at once; also the widest sequence span held.
        public var capacity: Int
        /// How long a frame with a hole is waited for before it is given up.
        public var maxWait: Duration
        /// How many recent sequence numbers are remembered to spot duplicates.
        public var historySize: Int

        public init(capacity: Int = 512, maxWait: Duration = .milliseconds(600), historySize: Int = 2048) {
            self.capacity = max(capacity, 2)
            self.maxWait = maxWait
            self.historySize = max(historySize, self.capacity)
        }
    }

    public struct Counters: Equatable, Sendable {
        /// Packets accepted into the buffer (duplicates, late and malformed ones excluded).
        public var received = 0
        public var duplicates = 0
        /// Packets that came after their frame was emitted or given up.
        public var late = 0
        /// Malformed payloads the depacketizer refused.
        public var malformed = 0
        /// Sequence numbers skipped without ever arriving in time.
        public var lost = 0
        /// Accepted packets that had been asked for again (NACK) by the caller.
        public var recovered = 0
        /// Packets that arrived but were thrown away with a frame that could not be completed.
        public var discarded = 0
        public var frames = 0
        public var keyframes = 0
        public var lossEvents = 0
    }

    /// The buffer gave up on everything from `firstSequence` to `lastSequence`.
    public struct FrameLoss: Equatable, Sendable {
        public var firstSequence: Int64
        public var lastSequence: Int64
        /// Sequence numbers in the range that never arrived.
        public var missingPackets: Int
        /// Packets in the range that arrived but were thrown away.
        public var discardedPackets: Int
    }

    public enum Output: Equatable, Sendable {
        case frame(MediaFrame)
        case loss(FrameLoss)
    }

    public enum InsertResult: Equatable, Sendable {
        case accepted
        case duplicate
        case late
        case malformed(DepacketizerError)
    }

    private struct Slot: Sendable {
        var sequence: Int64
        var timestamp: Int64
        var marker: Bool
        var fragment: DepacketizedFragment
        var bytes: [UInt8]
        var arrival: MediaInstant
        /// The codec refused the payload: the sequence number is accounted for (no hole to
        /// wait on), but the frame it belongs to cannot be decoded.
        var unusable: Bool

        var endsFrame: Bool { marker || fragment.endsFrame }
    }

    public let configuration: Configuration
    public private(set) var counters = Counters()
    private let depacketizer: any Depacketizer
    /// Ring indexed by sequence modulo capacity; a slot belongs to `sequence` only if it says so.
    private var slots: [Slot?]
    /// Ring of recently accepted sequence numbers, for duplicate detection.
    private var seen: [Int64]
    /// The lowest sequence number not yet emitted or given up.
    private var head: Int64?
    private var highest: Int64?
    private var heldCount = 0
    private var pending: [Output] = []
    /// False until the first frame is emitted or given up. Until then the first packets may
    /// still be reordered, so the head can move back and a mid-frame head is waited on.
    private var started = false

    public init(depacketizer: any Depacketizer, configuration: Configuration = Configuration()) {
        self.depacketizer = depacketizer
        self.configuration = configuration
        slots = Array(repeating: nil, count: configuration.capacity)
        seen = Array(repeating: .min, count: configuration.historySize)
    }

    /// Packets currently held.
    public var count: Int { heldCount }

    /// The lowest sequence number the buffer still waits for, if it has seen any packet.
    public var nextSequence: Int64? { head }

    /// Stores one packet. `payload` is the RTP payload (padding excluded); `requested` says the
    /// caller had NACKed it, so an accepted packet counts as recovered.
    public mutating func insert(
        sequence: Int64, timestamp: Int64, marker: Bool, payload: UnsafeRawBufferPointer, arrival: MediaInstant,
        requested: Bool = false
    ) -> InsertResult {
        let seenIndex = Self.index(sequence, count: seen.count)
        if seen[seenIndex] == sequence || slot(sequence) != nil {
            counters.duplicates += 1
            return .duplicate
        }
        if let head, sequence < head {
            let capacity = Int64(configuration.capacity)
            guard !started, (highest ?? head) - sequence < capacity else {
                counters.late += 1
                return .late
            }
            self.head = sequence  // reordered among the very first packets
        }
        var result = InsertResult.accepted
        var fragment = DepacketizedFragment(range: 0..<0, startsFrame: false, isKeyframe: false)
        var bytes: [UInt8] = []
        do throws(DepacketizerError) {
            fragment = try depacketizer.fragment(of: payload)
            // A depacketizer pointing outside the payload is a bug, but it must not trap here.
            if fragment.range.lowerBound < 0 || fragment.range.upperBound > payload.count {
                throw DepacketizerError.rangeOutsidePayload
            }
            bytes = try depacketizer.frameBytes(of: payload, fragment: fragment)
        } catch {
            counters.malformed += 1
            result = .malformed(error)
        }
        if head == nil { head = sequence }
        if let head, sequence - head >= Int64(configuration.capacity) {
            makeRoom(newHead: sequence - Int64(configuration.capacity) + 1)
        }
        let unusable = result != .accepted
        slots[Self.index(sequence, count: slots.count)] = Slot(
            sequence: sequence, timestamp: timestamp, marker: marker, fragment: fragment, bytes: bytes, arrival: arrival,
            unusable: unusable)
        seen[seenIndex] = sequence
        heldCount += 1
        highest = max(highest ?? sequence, sequence)
        guard !unusable else { return result }
        counters.received += 1
        if requested { counters.recovered += 1 }
        return result
    }

    /// Frames that are complete, in order, and losses for frames waited on for longer than
    /// `maxWait` at `now`.
    public mutating func drain(now: MediaInstant) -> [Output] {
        var outputs = pending
        pending.removeAll()
        while true {
            assembleCompleteFrames(into: &outputs)
            guard heldCount > 0, let oldest = oldestArrival(), now - oldest >= configuration.maxWait else { break }
            giveUpHeadFrame(into: &outputs)
        }
        return outputs
    }

    /// Emits what is complete, gives up everything else, and forgets the sequence space, so the
    /// next packet starts a new one (the sender restarted its sequence numbers).
    public mutating func flush() -> [Output] {
        var outputs = pending
        pending.removeAll()
        assembleCompleteFrames(into: &outputs)
        while heldCount > 0 { giveUpHeadFrame(into: &outputs) }
        head = nil
        highest = nil
        started = false
        for index in seen.indices { seen[index] = .min }
        return outputs
    }

    // MARK: - Assembly

    private func slot(_ sequence: Int64) -> Slot? {
        guard let slot = slots[Self.index(sequence, count: slots.count)], slot.sequence == sequence else { return nil }
        return slot
    }

    private static func index(_ sequence: Int64, count: Int) -> Int {
        let modulus = Int64(count)
        return Int((sequence % modulus + modulus) % modulus)
    }

    private mutating func remove(_ sequence: Int64) -> Slot? {
        let index = Self.index(sequence, count: slots.count)
        guard let slot = slots[index], slot.sequence == sequence else { return nil }
        slots[index] = nil
        heldCount -= 1
        return slot
    }

    /// The last sequence number of the frame starting at `start`, if all its packets are here.
    private func completeFrameEnd(from start: Int64) -> Int64? {
        var sequence = start
        while let current = slot(sequence) {
            if current.endsFrame { return sequence }
            guard let next = slot(sequence + 1) else { return nil }
            if next.timestamp != current.timestamp { return sequence }
            if next.fragment.startsFrame, depacketizer.frameStartEndsPreviousFrame { return sequence }
            sequence += 1
        }
        return nil
    }

    private mutating func assembleCompleteFrames(into outputs: inout [Output]) {
        while let start = head, let first = slot(start) {
            guard first.fragment.startsFrame else {
                // This frame's start is gone (or, early on, may still come): without it the
                // rest cannot be decoded. Drop it, unless the stream is young and nothing
                // later could be emitted anyway.
                guard started || hasFrameStart(after: start) else { return }
                giveUpHeadFrame(into: &outputs)
                continue
            }
            guard let end = completeFrameEnd(from: start) else { return }
            if (start...end).contains(where: { slot($0)?.unusable ?? false }) {
                giveUpHeadFrame(into: &outputs)
                continue
            }
            started = true
            var bytes: [UInt8] = []
            var completedAt = first.arrival
            var isKeyframe = false
            for sequence in start...end {
                guard let packet = remove(sequence) else { continue }
                bytes.append(contentsOf: packet.bytes)
                completedAt = max(completedAt, packet.arrival)
                isKeyframe = isKeyframe || packet.fragment.isKeyframe
            }
            head = end + 1
            counters.frames += 1
            if isKeyframe { counters.keyframes += 1 }
            outputs.append(
                .frame(
                    MediaFrame(
                        bytes: bytes, rtpTimestamp: first.timestamp, isKeyframe: isKeyframe,
                        firstSequence: start, lastSequence: end, completedAt: completedAt)))
        }
    }

    private func hasFrameStart(after sequence: Int64) -> Bool {
        guard let highest, sequence < highest else { return false }
        return (sequence + 1...highest).contains { slot($0)?.fragment.startsFrame ?? false }
    }

    private func oldestArrival() -> MediaInstant? {
        guard let head, let highest, head <= highest else { return nil }
        var oldest: MediaInstant?
        for sequence in head...highest {
            guard let packet = slot(sequence) else { continue }
            if oldest == nil || packet.arrival < oldest! { oldest = packet.arrival }
        }
        return oldest
    }

    /// Skips the frame at the head (and any hole before the next frame start), counting what
    /// never arrived as lost and what did as discarded. When a start does not end a frame
    /// (H.264), a start with the given-up frame's own timestamp is a later part of that frame
    /// (its SPS after an AUD, its next slice), not the next frame, and is skipped too.
    private mutating func giveUpHeadFrame(into outputs: inout [Output]) {
        guard let start = head, let highest, start <= highest else { return }
        let ownTimestamp = depacketizer.frameStartEndsPreviousFrame ? nil : slot(start)?.timestamp
        var next = slot(start) == nil ? start : start + 1
        while next <= highest, !(slot(next).map { $0.fragment.startsFrame && $0.timestamp != ownTimestamp } ?? false) {
            next += 1
        }
        var missing = 0
        var discarded = 0
        for sequence in start..<next {
            if remove(sequence) == nil { missing += 1 } else { discarded += 1 }
        }
        head = next
        started = true
        record(FrameLoss(firstSequence: start, lastSequence: next - 1, missingPackets: missing, discardedPackets: discarded), into: &outputs)
    }

    private mutating func record(_ loss: FrameLoss, into outputs: inout [Output]) {
        counters.lost += loss.missingPackets
        counters.discarded += loss.discardedPackets
        counters.lossEvents += 1
        outputs.append(.loss(loss))
    }

    /// Moves the head up to `newHead` so a packet far ahead fits, emitting what completes and
    /// giving up the rest. A jump far past everything held is one loss of the whole gap.
    private mutating func makeRoom(newHead: Int64) {
        var outputs: [Output] = []
        while let start = head, start < newHead {
            assembleCompleteFrames(into: &outputs)
            guard let current = head, current < newHead else { break }
            if heldCount == 0 {
                head = newHead
                record(FrameLoss(firstSequence: current, lastSequence: newHead - 1, missingPackets: Int(newHead - current), discardedPackets: 0), into: &outputs)
            } else {
                giveUpHeadFrame(into: &outputs)
            }
        }
        pending.append(contentsOf: outputs)
    }
}
