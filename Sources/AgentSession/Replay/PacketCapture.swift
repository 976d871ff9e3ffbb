import AgentCore
import AgentWire
import Dispatch
import Glibc
import Synchronization

/// Writes what a receive path takes in to a directory, for `agentd replay` and for test
/// fixtures: every decrypted RTP packet and sender report to `capture.rtpdump` (rtptools' dump
/// format, so rtpplay and Wireshark's tools read it too), and the routes and participants to
/// `capture.json` (``CaptureDescription``).
///
/// The loop's side appends to a buffer under a lock; full buffers (64 kB) are written on a queue
/// of the capture's own. Past 8 MB waiting for the disk, or past `maxBytes` in the file, packets
/// are dropped and counted, never waited for. The dump's offset 0 is the first thing seen.
public final class PacketCapture: ReceivePacketTap, @unchecked Sendable {
    // @unchecked Sendable: `descriptor` is immutable after init; the rest is behind `state`.

    static let chunkBytes = 64 << 10
    static let maxPendingBytes = 8 << 20

    private struct State {
        var buffer: [UInt8] = []
        var start: MediaInstant?
        var description = CaptureDescription(startedAtNanoseconds: 0)
        var lastRoutes: [CapturedRoute]?
        var fileBytes = 0
        var pendingBytes = 0
        var writeError: String?
        var finished = false
    }

    public let directory: String
    public let maxBytes: Int
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "agentd.capture", qos: .utility)
    private let state = Mutex(State())
    private let written = DispatchGroup()

    /// Creates `capture.rtpdump` in `directory` (which must exist); never over an existing one.
    public init(directory: String, maxBytes: Int = 1 << 30) throws(CaptureError) {
        self.directory = directory
        self.maxBytes = max(1 << 16, maxBytes)
        let path = directory + "/" + CaptureDescription.dumpFileName
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .cannotCreate("\(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if state.withLock({ !$0.finished }) { _ = close(descriptor) }
    }

    // MARK: ReceivePacketTap (the loop)

    public func received(rtp packet: UnsafeRawBufferPointer, at arrival: MediaInstant) {
        append(packet, isRTCP: false, at: arrival)
    }

    public func received(senderReport: SenderReport, at arrival: MediaInstant) {
        var bytes: [UInt8] = []
        senderReport.write(into: &bytes)
        bytes.withUnsafeBytes { append($0, isRTCP: true, at: arrival) }
    }

    public func routed(_ routes: [SubscriptionRouter.Route], at time: MediaInstant) {
        let captured = routes.map(CapturedRoute.init).sorted { $0.mid < $1.mid }
        state.withLock { state in
            guard !state.finished, state.lastRoutes != captured else { return }
            state.lastRoutes = captured
            let offset = Self.offsetMilliseconds(&state, time)
            state.description.routeChanges.append(.init(atMilliseconds: Int64(offset), routes: captured))
        }
    }

    /// Names a participant (the routes know only ids), from the room's events.
    public func participant(id: String, display: String) {
        state.withLock { state in
            guard !state.finished, !state.description.participants.contains(where: { $0.id == id }) else { return }
            state.description.participants.append(.init(id: id, display: display))
        }
    }

    // MARK: End

    /// Writes what waits, closes the dump and writes `capture.json`. Idempotent.
    /// - Returns: the description written.
    @discardableResult
    public func finish() throws(CaptureError) -> CaptureDescription {
        let (chunk, already) = state.withLock { state -> ([UInt8], Bool) in
            defer { state.buffer = [] }
            if state.buffer.isEmpty && state.fileBytes == 0 && !state.finished {
                // No packet came: the dump still gets its header, so it reads as an empty capture.
                state.buffer = RTPDumpWriter.fileHeader(RTPDumpHeader(startingAt: state.description.startedAtNanoseconds))
            }
            return (state.buffer, state.finished)
        }
        if already { return state.withLock { $0.description } }
        if !chunk.isEmpty { enqueue(chunk) }
        written.wait()
        let (description, error) = state.withLock { state in
            state.finished = true
            return (state.description, state.writeError)
        }
        _ = fsync(descriptor)
        _ = close(descriptor)
        try description.write(directory: directory)
        if let error { throw .cannotCreate("\(CaptureDescription.dumpFileName): \(error)") }
        return description
    }

    /// Stops capturing and removes the dump (the join failed: there is nothing to replay).
    public func discard() {
        let already = state.withLock { state in defer { state.finished = true }; return state.finished }
        guard !already else { return }
        written.wait()
        _ = close(descriptor)
        _ = unlink(directory + "/" + CaptureDescription.dumpFileName)
    }

    // MARK: Writing

    private func append(_ packet: UnsafeRawBufferPointer, isRTCP: Bool, at arrival: MediaInstant) {
        let full: [UInt8]? = state.withLock { state in
            guard !state.finished else { return nil }
            let offset = Self.offsetMilliseconds(&state, arrival)
            if state.fileBytes == 0 && state.buffer.isEmpty {
                state.buffer = RTPDumpWriter.fileHeader(RTPDumpHeader(startingAt: state.description.startedAtNanoseconds))
                state.buffer.reserveCapacity(Self.chunkBytes + 2048)
            }
            let room = state.fileBytes + state.buffer.count + packet.count + 8 <= maxBytes
            guard room, state.pendingBytes <= Self.maxPendingBytes else {
                state.description.dropped += 1
                return nil
            }
            let record = RTPDumpRecord(offsetMilliseconds: offset, isRTCP: isRTCP, bytes: Array(packet))
            do {
                try RTPDumpWriter.append(record, to: &state.buffer)
                state.description.packets += 1
            } catch {
                state.description.dropped += 1
            }
            guard state.buffer.count >= Self.chunkBytes else { return nil }
            defer { state.buffer = []; state.buffer.reserveCapacity(Self.chunkBytes + 2048) }
            state.pendingBytes += state.buffer.count
            state.fileBytes += state.buffer.count
            return state.buffer
        }
        if let full { enqueue(full, counted: true) }
    }

    private func enqueue(_ chunk: [UInt8], counted: Bool = false) {
        if !counted {
            state.withLock { state in
                state.pendingBytes += chunk.count
                state.fileBytes += chunk.count
            }
        }
        written.enter()
        queue.async { [self] in
            defer { written.leave() }
            var offset = 0
            var failure: String?
            chunk.withUnsafeBytes { raw in
                while offset < raw.count, let base = raw.baseAddress {
                    let count = write(descriptor, base + offset, raw.count - offset)
                    if count > 0 {
                        offset += count
                    } else if count < 0 && errno == EINTR {
                        continue
                    } else {
                        failure = String(cString: strerror(errno))
                        return
                    }
                }
            }
            state.withLock { state in
                state.pendingBytes -= chunk.count
                if let failure, state.writeError == nil { state.writeError = failure }
            }
        }
    }

    /// Milliseconds since the first thing seen (which sets the start), clamped into the dump's field.
    private static func offsetMilliseconds(_ state: inout State, _ time: MediaInstant) -> UInt32 {
        guard let start = state.start else {
            state.start = time
            state.description.startedAtNanoseconds = time.wallNanoseconds
            return 0
        }
        let elapsed = (time.monotonicNanoseconds &- start.monotonicNanoseconds) / 1_000_000
        return UInt32(clamping: max(0, elapsed))
    }
}
