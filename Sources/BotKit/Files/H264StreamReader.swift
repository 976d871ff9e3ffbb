import Agent
import Foundation

/// Reads an H.264 elementary stream in the byte stream format of ITU-T H.264 Annex B (`.h264`,
/// `.264`, as `ffmpeg -f h264`, x264 and hardware encoders write it), streaming from disk, one
/// access unit at a time.
///
/// The stream has no container, so two things come from the bitstream itself:
/// - **Access units** (§7.4.1.2.3): a new one begins at an access unit delimiter, SEI, SPS or PPS,
///   or at a slice whose first_mb_in_slice is 0 (its ue(v) is the single bit 1), once the current
///   one holds a slice. Each comes out in Annex B form with four-byte start codes, as the RTP
///   packetizer takes it; a keyframe is one with an IDR slice.
/// - **Times**: none are stored, so frames are `1/framesPerSecond` apart (30 by default).
///
/// Memory is bounded: a NAL unit or an access unit past ``maxAccessUnitBytes`` is an error, not
/// an allocation.
public final class H264StreamReader {
    /// Far beyond a 4K IDR; more means the file is not what it says.
    public static let maxAccessUnitBytes = 16 << 20
    static let chunkBytes = 1 << 16

    public let path: String
    public let framesPerSecond: Int
    /// Access units returned so far.
    public private(set) var framesRead = 0

    private let handle: FileHandle
    /// Bytes read and not yet returned, from the start code of the NAL unit being read on.
    private var buffer: [UInt8] = []
    /// How far `buffer` was searched for the next start code (so a long NAL is scanned once).
    private var searched = 0
    /// Where `buffer[0]` lies in the file.
    private var bufferOffset = 0
    private var endOfFile = false
    /// The NAL unit read ahead that begins the next access unit.
    private var lookahead: [UInt8]?

    public init(path: String, framesPerSecond: Int = 30) throws(H264StreamError) {
        guard (1...240).contains(framesPerSecond) else { throw .invalidFrameRate(framesPerSecond) }
        do {
            handle = try MediaFile.openHandle(path)
        } catch {
            throw .io(operation: "open", path: path, message: error.readerMessage)
        }
        self.path = path
        self.framesPerSecond = framesPerSecond
        // Before the first start code only leading zeros may come (Annex B.2).
        try fill(until: { Self.startCode(in: $0.buffer, from: 0) != nil || $0.buffer.count > Self.maxAccessUnitBytes })
        guard let first = Self.startCode(in: buffer, from: 0), buffer[..<first.zerosStart].allSatisfy({ $0 == 0 }) else {
            throw .notAnnexB(path: path)
        }
    }

    deinit {
        try? handle.close()
    }

    /// The next access unit, or nil at the end of the stream.
    public func nextFrame() throws(H264StreamError) -> EncodedMediaFrame? {
        var units: [[UInt8]] = []
        var size = 0
        var hasSlice = false
        var isKeyframe = false
        while true {
            let nal: [UInt8]
            if let lookahead {
                nal = lookahead
                self.lookahead = nil
            } else if let next = try nextNALUnit() {
                nal = next
            } else {
                break
            }
            guard let header = nal.first else { continue }
            let type = H264NALUnitType(header: header)
            if hasSlice, Self.beginsAccessUnit(nal, type: type) {
                lookahead = nal
                break
            }
            if type?.isVCL == true { hasSlice = true }
            if type == .idrSlice { isKeyframe = true }
            size += AnnexBScanner.startCode.count + nal.count
            guard size <= Self.maxAccessUnitBytes else { throw .accessUnitTooLarge(offset: bufferOffset, limit: Self.maxAccessUnitBytes) }
            units.append(nal)
        }
        guard hasSlice else {
            if framesRead == 0 { throw .noPictures(path: path) }
            return nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        for unit in units { bytes += AnnexBScanner.startCode + unit }
        let (time, overflow) = Int64(framesRead).multipliedReportingOverflow(by: 1_000_000_000 / Int64(framesPerSecond))
        framesRead += 1
        return EncodedMediaFrame(bytes: bytes, timestampNanoseconds: overflow ? .max : time, isKeyframe: isKeyframe, codec: .h264)
    }

    /// §7.4.1.2.3: what may only come first in an access unit, or a slice of a new picture.
    static func beginsAccessUnit(_ nal: [UInt8], type: H264NALUnitType?) -> Bool {
        switch type {
        case .accessUnitDelimiter, .sei, .sequenceParameterSet, .pictureParameterSet: true
        case .nonIDRSlice, .idrSlice: nal.count > 1 && nal[1] & 0x80 != 0  // first_mb_in_slice == 0
        default: false
        }
    }

    /// The next NAL unit (header byte included, trailing zeros not), or nil at the end.
    private func nextNALUnit() throws(H264StreamError) -> [UInt8]? {
        while true {
            guard let first = Self.startCode(in: buffer, from: 0) else {
                guard endOfFile else {
                    try fill(until: { Self.startCode(in: $0.buffer, from: 0) != nil || $0.endOfFile })
                    continue
                }
                buffer.removeAll()
                return nil
            }
            let start = first.end
            if let next = Self.startCode(in: buffer, from: max(start, searched)) {
                let nal = Self.trimmed(buffer[start..<next.zerosStart])
                consume(upTo: next.zerosStart)
                if !nal.isEmpty { return nal }
                continue
            }
            searched = max(start, buffer.count - 3)
            guard !endOfFile else {
                let nal = Self.trimmed(buffer[start...])
                consume(upTo: buffer.count)
                return nal.isEmpty ? nil : nal
            }
            guard buffer.count - start <= Self.maxAccessUnitBytes else {
                throw .accessUnitTooLarge(offset: bufferOffset + start, limit: Self.maxAccessUnitBytes)
            }
            try fill(until: { _ in true })
        }
    }

    private func consume(upTo index: Int) {
        buffer.removeFirst(index)
        bufferOffset += index
        searched = 0
    }

    /// Reads chunks until `done` holds or the file ends.
    private func fill(until done: (H264StreamReader) -> Bool) throws(H264StreamError) {
        repeat {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: Self.chunkBytes) ?? Data()
            } catch {
                throw .io(operation: "read", path: path, message: "\(error)")
            }
            if chunk.isEmpty { endOfFile = true } else { buffer.append(contentsOf: chunk) }
        } while !done(self) && !endOfFile
    }

    /// The first start code (`00 00 01`, with any zeros before it) at or after `from`:
    /// where its zeros begin and where the NAL unit after it begins.
    static func startCode(in bytes: [UInt8], from: Int) -> (zerosStart: Int, end: Int)? {
        var index = max(0, from)
        while index + 2 < bytes.count {
            if bytes[index + 2] > 1 {
                index += 3
            } else if bytes[index + 2] == 1, bytes[index + 1] == 0, bytes[index] == 0 {
                var zeros = index
                while zeros > 0, bytes[zeros - 1] == 0 { zeros -= 1 }
                return (zeros, index + 3)
            } else {
                index += 1
            }
        }
        return nil
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == 0 { end -= 1 }
        return Array(bytes[bytes.startIndex..<end])
    }
}
