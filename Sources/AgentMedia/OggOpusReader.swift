import COgg
import Foundation

/// Reads the Opus packets of an Ogg Opus file (RFC 7845) without decoding them, so a file player
/// can send them as they are. libogg finds the pages (RFC 3533) and joins packets that span pages;
/// this wrapper parses OpusHead and OpusTags and stamps each audio packet with its time.
///
/// Times come from granule positions, never from summed durations alone. A page's granule is the
/// 48 kHz sample count at the end of the last packet completed on it, pre-skip included. The first
/// packet on a page starts where the previous page's granule ended; on the first audio page it
/// starts at granule − (sum of its packets' durations, read from each TOC byte). Time is then
/// (start − pre-skip) / 48 kHz, so the packets the decoder trims at the start get times below zero.
/// On the last page the granule may be smaller than the durations add up to: that trims the end
/// (RFC 7845 §4.5), and does not move the packets' start.
///
/// Reading streams from disk. Only the first Opus logical stream is read; pages of other
/// multiplexed streams are skipped, and a chained file ends at the first stream's end.
///
/// Reading is bounded, so a file that is not what it claims costs little: the first page must
/// start within ``firstPageSearchLimit`` bytes (a 20 GB non-Ogg file was read to its end before
/// it was called "not Ogg"), the headers must end within ``headerSizeLimit`` bytes, and an
/// audio packet may span pages for at most ``packetSizeLimit`` bytes.
public final class OggOpusReader {
    public static let sampleRate: Int64 = 48_000
    /// An Ogg file starts with a page (RFC 3533 §6); this allows for junk a tool may put first.
    public static let firstPageSearchLimit = 64 << 10
    /// OpusHead and OpusTags are a few hundred bytes; tags with pictures can be larger.
    public static let headerSizeLimit = 16 << 20
    /// An Opus packet holds at most 120 ms of 1275-byte frames (RFC 6716 §3.2.5): 61,200 bytes.
    public static let packetSizeLimit = 1 << 20

    public let path: String
    public let head: OpusHead
    public let tags: OpusTags
    /// The granule position of the last audio page read so far. After ``nextFrame()`` returned nil
    /// it gives the stream's length: (granule − pre-skip) samples at 48 kHz.
    public private(set) var lastGranulePosition: Int64?
    /// Times libogg reported a gap in the page sequence (lost or corrupt pages).
    public private(set) var gaps = 0
    /// Audio packets returned so far.
    public private(set) var packetsRead = 0

    /// Playing time from granules, once the end has been reached (or so far, before that).
    public var durationNanoseconds: Int64? {
        guard let lastGranulePosition else { return nil }
        return try? Self.nanoseconds(samples: lastGranulePosition - Int64(head.preSkip))
    }

    private let handle: FileHandle
    private let sync: UnsafeMutablePointer<ogg_sync_state>
    private let stream: UnsafeMutablePointer<ogg_stream_state>
    private let serial: Int32
    private var endOfFile = false
    private var endOfStream = false
    private var ready: [EncodedMediaFrame] = []
    private var readyIndex = 0
    /// Packets completed on pages that carried no granule yet (only in malformed files).
    private var unstamped: [[UInt8]] = []

    public init(path: String) throws(OggOpusReaderError) {
        // A regular file only: a FIFO or a device would block or never end (MediaFile).
        let handle: FileHandle
        do { handle = try MediaFile.openHandle(path) } catch { throw .io(operation: "open", path: path, message: error.readerMessage) }
        let sync = UnsafeMutablePointer<ogg_sync_state>.allocate(capacity: 1)
        let stream = UnsafeMutablePointer<ogg_stream_state>.allocate(capacity: 1)
        ogg_sync_init(sync)
        stream.initialize(to: ogg_stream_state())
        // A class whose init throws before every property is set never runs `deinit`, so the
        // headers are read into locals and a failure frees here what was allocated above.
        var serial: Int32 = 0
        let head: OpusHead
        let tags: OpusTags
        do {
            var budget = ReadBudget(bytesLeft: Self.firstPageSearchLimit, whenSpent: .notOgg(path: path))
            head = try Self.readHeaders(handle: handle, sync: sync, stream: stream, path: path, serial: &serial, budget: &budget)
            tags = try Self.readTags(handle: handle, sync: sync, stream: stream, path: path, serial: serial, budget: &budget)
        } catch {
            Self.free(sync: sync, stream: stream, handle: handle)
            throw error
        }
        self.path = path
        self.handle = handle
        self.sync = sync
        self.stream = stream
        self.serial = serial
        self.head = head
        self.tags = tags
    }

    deinit {
        Self.free(sync: sync, stream: stream, handle: handle)
    }

    private static func free(sync: UnsafeMutablePointer<ogg_sync_state>, stream: UnsafeMutablePointer<ogg_stream_state>,
                             handle: FileHandle) {
        // ogg_stream_clear is safe on a zeroed, never-initialized state (it frees NULLs).
        ogg_stream_clear(stream)
        ogg_sync_clear(sync)
        stream.deallocate()
        sync.deallocate()
        try? handle.close()
    }

    /// The next Opus packet with its time from the granule positions, or nil at the end.
    public func nextFrame() throws(OggOpusReaderError) -> EncodedMediaFrame? {
        while readyIndex == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            if endOfStream { return nil }
            var unbounded: ReadBudget?
            guard let page = try Self.nextPage(handle: handle, sync: sync, path: path, endOfFile: &endOfFile, budget: &unbounded) else {
                return nil
            }
            try process(page)
        }
        defer { readyIndex += 1 }
        packetsRead += 1
        return ready[readyIndex]
    }

    /// Every remaining packet.
    public func readAll() throws(OggOpusReaderError) -> [EncodedMediaFrame] {
        var frames: [EncodedMediaFrame] = []
        while let frame = try nextFrame() { frames.append(frame) }
        return frames
    }

    private func process(_ pageBytes: OggPageCopy) throws(OggOpusReaderError) {
        var page = pageBytes.page
        guard ogg_page_serialno(&page) == serial else { return }
        ogg_stream_pagein(stream, &page)
        unstamped += Self.drainPackets(stream, gaps: &gaps)
        // What is left in libogg's buffer is a packet still being continued on later pages.
        let pending = stream.pointee.body_fill - stream.pointee.body_returned
        guard pending <= Self.packetSizeLimit else {
            throw .packetTooLarge(index: packetsRead + ready.count + unstamped.count, bytes: pending)
        }
        let granule = ogg_page_granulepos(&page)
        let isLast = ogg_page_eos(&page) != 0
        if isLast { endOfStream = true }
        guard granule >= 0 else { return }
        var durations: [Int64] = []
        for (offset, packet) in unstamped.enumerated() {
            do {
                durations.append(Int64(try OpusPacket.sampleCount(packet)))
            } catch {
                throw .badPacket(index: packetsRead + ready.count + offset, reason: error)
            }
        }
        let total = durations.reduce(0, +)
        var start: Int64
        if let previous = lastGranulePosition, isLast || granule - total == previous {
            start = previous
        } else if lastGranulePosition == nil {
            // §4: a first page whose packets would start before zero is invalid unless it also ends
            // the stream; start such a stream at zero rather than invent negative granules.
            start = max(0, granule - total)
        } else {
            // The granule disagrees with the durations (lost pages): the granule wins.
            start = granule - total
        }
        for (packet, duration) in zip(unstamped, durations) {
            let time = try Self.nanoseconds(samples: start - Int64(head.preSkip))
            ready.append(EncodedMediaFrame(bytes: packet, timestampNanoseconds: time, isKeyframe: true, codec: .opus))
            start += duration
        }
        unstamped.removeAll(keepingCapacity: true)
        lastGranulePosition = granule
    }

    // MARK: - Headers

    /// Finds the first logical stream whose first packet is OpusHead and parses it.
    private static func readHeaders(handle: FileHandle, sync: UnsafeMutablePointer<ogg_sync_state>,
                                    stream: UnsafeMutablePointer<ogg_stream_state>, path: String,
                                    serial: inout Int32, budget: inout ReadBudget) throws(OggOpusReaderError) -> OpusHead {
        var endOfFile = false
        var sawPage = false
        var pageBudget: ReadBudget? = budget
        defer { budget = pageBudget ?? budget }
        while let copy = try nextPage(handle: handle, sync: sync, path: path, endOfFile: &endOfFile, budget: &pageBudget) {
            if !sawPage {
                // Found in time: the rest of the headers get the header limit, less what was read.
                let read = firstPageSearchLimit - (pageBudget?.bytesLeft ?? 0)
                pageBudget = ReadBudget(bytesLeft: headerSizeLimit - read, whenSpent: .headersTooLarge(path: path, limit: headerSizeLimit))
            }
            sawPage = true
            var page = copy.page
            // Beginning-of-stream pages come first (RFC 3533 §4); past them no new stream starts.
            guard ogg_page_bos(&page) != 0 else { throw .notOpus(path: path) }
            if ogg_stream_init(stream, ogg_page_serialno(&page)) != 0 {
                throw .io(operation: "ogg_stream_init", path: path, message: "failed")
            }
            ogg_stream_pagein(stream, &page)
            var gaps = 0
            let packets = drainPackets(stream, gaps: &gaps)
            if let first = packets.first, OpusHead.isHead(first) {
                serial = ogg_page_serialno(&page)
                return try OpusHead(parsing: first)
            }
            ogg_stream_clear(stream)
            stream.initialize(to: ogg_stream_state())
        }
        throw sawPage ? .notOpus(path: path) : .notOgg(path: path)
    }

    /// Reads the OpusTags packet that follows OpusHead, however many pages it spans.
    private static func readTags(handle: FileHandle, sync: UnsafeMutablePointer<ogg_sync_state>,
                                 stream: UnsafeMutablePointer<ogg_stream_state>, path: String,
                                 serial: Int32, budget: inout ReadBudget) throws(OggOpusReaderError) -> OpusTags {
        var endOfFile = false
        var gaps = 0
        var pageBudget: ReadBudget? = budget
        defer { budget = pageBudget ?? budget }
        while true {
            if let packet = drainPackets(stream, gaps: &gaps, limit: 1).first {
                return try OpusTags(parsing: packet)
            }
            guard let copy = try nextPage(handle: handle, sync: sync, path: path, endOfFile: &endOfFile, budget: &pageBudget) else {
                throw .truncatedHeaders(path: path)
            }
            var page = copy.page
            if ogg_page_serialno(&page) == serial { ogg_stream_pagein(stream, &page) }
        }
    }

    // MARK: - libogg plumbing

    /// An ogg_page points into the sync buffer, valid until the next `ogg_sync_*` call; callers use
    /// it at once, before asking for another page.
    private struct OggPageCopy {
        var page: ogg_page
    }

    /// How many more bytes may be read from the file, and what to throw when they are spent.
    private struct ReadBudget {
        var bytesLeft: Int
        var whenSpent: OggOpusReaderError
    }

    /// The next page; nil at the end of the file. With a budget, reading past it throws its error.
    private static func nextPage(handle: FileHandle, sync: UnsafeMutablePointer<ogg_sync_state>, path: String,
                                 endOfFile: inout Bool, budget: inout ReadBudget?) throws(OggOpusReaderError) -> OggPageCopy? {
        var page = ogg_page()
        while true {
            let result = ogg_sync_pageout(sync, &page)
            if result == 1 { return OggPageCopy(page: page) }
            // -1: bytes skipped to regain sync (garbage between pages); keep looking.
            if result < 0 { continue }
            if endOfFile { return nil }
            var chunkSize = 16_384
            if let budget {
                guard budget.bytesLeft > 0 else { throw budget.whenSpent }
                chunkSize = min(chunkSize, budget.bytesLeft)
            }
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                throw .io(operation: "read", path: path, message: "\(error)")
            }
            if chunk.isEmpty {
                endOfFile = true
                continue
            }
            budget?.bytesLeft -= chunk.count
            guard let buffer = ogg_sync_buffer(sync, chunk.count) else {
                throw .io(operation: "ogg_sync_buffer", path: path, message: "out of memory")
            }
            chunk.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
            ogg_sync_wrote(sync, chunk.count)
        }
    }

    /// Packets libogg has completed so far, copied out of its buffers.
    private static func drainPackets(_ stream: UnsafeMutablePointer<ogg_stream_state>, gaps: inout Int,
                                     limit: Int = .max) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var packet = ogg_packet()
        while packets.count < limit {
            let result = ogg_stream_packetout(stream, &packet)
            if result == 0 { break }
            if result < 0 {
                gaps += 1
                continue
            }
            guard let data = packet.packet, packet.bytes > 0 else {
                packets.append([])
                continue
            }
            packets.append(Array(UnsafeBufferPointer(start: data, count: packet.bytes)))
        }
        return packets
    }

    private static func nanoseconds(samples: Int64) throws(OggOpusReaderError) -> Int64 {
        guard let value = Int64(exactly: Int128(samples) * 1_000_000_000 / Int128(sampleRate)) else {
            throw .granuleOutOfRange(samples)
        }
        return value
    }
}
