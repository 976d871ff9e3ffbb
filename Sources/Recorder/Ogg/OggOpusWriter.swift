import Agent
import COgg

/// Writes Opus packets, as received, into an Ogg/Opus file (RFC 7845) with libogg.
///
/// Granule positions count 48 kHz samples including the pre-skip (§4), taken from each packet's
/// TOC, never from wall time. Pages are flushed at least once a second of audio so a killed
/// process leaves a playable file; the last packet is held back so ``close()`` can mark it
/// end-of-stream.
public final class OggOpusWriter {
    public let channels: Int
    public let preSkip: UInt16
    private let sink: ByteSink
    private let stream: UnsafeMutablePointer<ogg_stream_state>
    private var packetNumber: Int64 = 0
    public private(set) var granulePosition: Int64 = 0
    private var lastFlushGranule: Int64 = 0
    private var pending: (bytes: [UInt8], granule: Int64)?
    private var closed = false
    private var firstError: Error?
    public private(set) var packetsWritten = 0

    public convenience init(path: String, channels: Int = 2, serial: Int32 = Int32.random(in: 1...Int32.max)) throws {
        try self.init(sink: FileByteSink(path: path), channels: channels, serial: serial)
    }

    public init(sink: ByteSink, channels: Int = 2, preSkip: UInt16 = 312, serial: Int32 = Int32.random(in: 1...Int32.max)) throws {
        self.sink = sink
        self.channels = channels
        self.preSkip = preSkip
        stream = .allocate(capacity: 1)
        ogg_stream_init(stream, serial)
        try writeHeaders()
    }

    deinit {
        try? close()
        ogg_stream_clear(stream)
        stream.deallocate()
    }

    /// Samples of audio (48 kHz) written so far, pre-skip excluded.
    public var durationSamples: Int64 { max(0, granulePosition - Int64(preSkip)) }

    private func writeHeaders() throws {
        // OpusHead (RFC 7845 §5.1): magic, version 1, channels, pre-skip LE16, rate LE32, gain, mapping 0.
        var head = Array("OpusHead".utf8) + [1, UInt8(channels)]
        head.appendLittleEndian(preSkip)
        head.appendLittleEndian(UInt32(48_000))  // input sample rate
        head.appendLittleEndian(Int16(0))  // output gain
        head.append(0)  // mapping family
        try submit(head, granule: 0, beginning: true, end: false)
        try flushPages(force: true)
        // OpusTags (§5.2): magic, vendor string (LE32 length), zero user comments.
        let vendor = Array("agentd".utf8)
        var tags = Array("OpusTags".utf8)
        tags.appendLittleEndian(UInt32(vendor.count))
        tags += vendor
        tags.appendLittleEndian(UInt32(0))  // user comments
        try submit(tags, granule: 0, beginning: false, end: false)
        try flushPages(force: true)
    }

    /// Appends one Opus packet. Its duration comes from its TOC byte; a packet that has none
    /// (empty, or over 120 ms) is refused with ``OpusPacket/Error`` and nothing is written.
    public func write(packet: [UInt8]) throws {
        if let firstError { throw firstError }
        guard !closed else { throw SinkError(operation: "write", path: "ogg", reason: "writer closed") }
        let samples = try OpusPacket.sampleCount(packet)
        do {
            if let held = pending { try submit(held.bytes, granule: held.granule, beginning: false, end: false) }
            granulePosition += Int64(samples)
            pending = (packet, granulePosition)
            packetsWritten += 1
            try flushPages(force: granulePosition - lastFlushGranule >= 48_000)
        } catch {
            firstError = error
            throw error
        }
    }

    private func submit(_ bytes: [UInt8], granule: Int64, beginning: Bool, end: Bool) throws {
        var copy = bytes
        let result = copy.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var packet = ogg_packet()
            packet.packet = buffer.baseAddress
            packet.bytes = buffer.count
            packet.b_o_s = beginning ? 1 : 0
            packet.e_o_s = end ? 1 : 0
            packet.granulepos = ogg_int64_t(granule)
            packet.packetno = ogg_int64_t(packetNumber)
            return ogg_stream_packetin(stream, &packet)
        }
        packetNumber += 1
        guard result == 0 else { throw SinkError(operation: "ogg_stream_packetin", path: "ogg", reason: "libogg refused the packet") }
    }

    /// Moves finished pages to the sink; `force` also ends the current page.
    private func flushPages(force: Bool) throws {
        var page = ogg_page()
        while (force ? ogg_stream_flush(stream, &page) : ogg_stream_pageout(stream, &page)) != 0 {
            var bytes = Array(UnsafeBufferPointer(start: page.header, count: page.header_len))
            bytes += UnsafeBufferPointer(start: page.body, count: page.body_len)
            try sink.append(bytes)
        }
        if force {
            lastFlushGranule = granulePosition
            try sink.flush()
        }
    }

    /// Writes the held packet with end-of-stream and closes the sink. Idempotent.
    public func close() throws {
        if closed {
            if let firstError { throw firstError }
            return
        }
        closed = true
        do {
            if let held = pending {
                try submit(held.bytes, granule: held.granule, beginning: false, end: true)
                pending = nil
            }
            try flushPages(force: true)
            try sink.close()
        } catch {
            firstError = error
            try? sink.close()
            throw error
        }
    }
}
