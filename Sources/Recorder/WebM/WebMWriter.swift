import Agent
import Foundation

/// Writes a WebM or Matroska file, crash-safe.
///
/// The DocType follows the tracks (``MatroskaDocType``): "webm" for VP8/VP9 and Opus, "matroska"
/// when a track is outside the WebM subset (H.264 as `V_MPEG4/ISO/AVC`). The layout is the same.
///
/// The segment starts with an unknown size and clusters are appended as they close (at most
/// half a second apart by default), so a killed process leaves a file players can read up to the last
/// closed cluster. A clean ``close()`` then appends the cues and back-patches the segment size,
/// the duration and the seek head into space reserved at the start.
///
///     EBML header
///     Segment (size: unknown until close)
///       Void (reserved, becomes SeekHead at close)
///       Info (TimestampScale 1 ms, Duration patched at close)
///       Tracks
///       Cluster* (Timestamp, SimpleBlock*)
///       Cues (at close)
public final class WebMWriter {
    public let tracks: [WebMTrack]
    public let docType: MatroskaDocType
    /// The longest span one cluster covers before a new one starts.
    public let maxClusterDurationMs: Int64

    private let sink: ByteSink
    private var segmentDataStart: Int64 = 0
    private var segmentSizeOffset: Int64 = 0
    private var seekHeadOffset: Int64 = 0
    private var durationOffset: Int64 = 0
    private var infoPosition: Int64 = 0
    private var tracksPosition: Int64 = 0

    /// The open cluster's SimpleBlocks.
    private var cluster: [UInt8] = []
    /// The closed cluster as written: header, timestamp, blocks.
    private var clusterOut: [UInt8] = []
    private var clusterTimestamp: Int64?
    private var clusterHasCue = false
    private var cues = WebMCueLog()
    private var firstTimestamp: Int64?
    private var lastTimestamp: Int64 = 0
    private var closed = false
    private var firstError: Error?
    public private(set) var framesWritten = 0

    static let seekHeadReserve = 96

    /// Creates the file at `path` and writes its header.
    public convenience init(path: String, tracks: [WebMTrack]) throws {
        try self.init(sink: FileByteSink(path: path), tracks: tracks)
    }

    public init(sink: ByteSink, tracks: [WebMTrack], maxClusterDurationMs: Int64 = 500) throws {
        self.sink = sink
        self.tracks = tracks
        docType = MatroskaDocType(tracks: tracks)
        self.maxClusterDurationMs = maxClusterDurationMs
        try writeHeader()
    }

    deinit { try? close() }

    public var bytesWritten: Int64 { sink.position + Int64(cluster.count) }

    private func writeHeader() throws {
        try sink.append(EBML.master(MatroskaID.ebml, [
            EBML.unsigned(MatroskaID.ebmlVersion, 1),
            EBML.unsigned(MatroskaID.ebmlReadVersion, 1),
            EBML.unsigned(MatroskaID.ebmlMaxIDLength, 4),
            EBML.unsigned(MatroskaID.ebmlMaxSizeLength, 8),
            EBML.string(MatroskaID.docType, docType.rawValue),
            EBML.unsigned(MatroskaID.docTypeVersion, 4),
            EBML.unsigned(MatroskaID.docTypeReadVersion, 2),
        ]))
        try sink.append(EBML.id(MatroskaID.segment))
        segmentSizeOffset = sink.position
        try sink.append(EBML.unknownSize)
        segmentDataStart = sink.position
        seekHeadOffset = sink.position
        try sink.append(EBML.void(total: Self.seekHeadReserve))

        infoPosition = sink.position
        let head = EBML.unsigned(MatroskaID.timestampScale, 1_000_000)
        let app = EBML.string(MatroskaID.muxingApp, "agentd") + EBML.string(MatroskaID.writingApp, "agentd")
        let duration = EBML.float(MatroskaID.duration, 0)
        let info = EBML.element(MatroskaID.info, head + app + duration)
        // The duration's 8-byte body is the last 8 bytes of the Info element.
        durationOffset = sink.position + Int64(info.count - 8)
        try sink.append(info)

        tracksPosition = sink.position
        try sink.append(EBML.master(MatroskaID.tracks, tracks.map(\.entry)))
        try sink.flush()
    }

    /// Appends one frame. `timestampMs` is media time from the recording's start; frames should
    /// come in non-decreasing time order across tracks (the recorder's muxer orders them).
    public func write(track: UInt8, timestampMs: Int64, keyframe: Bool, frame: [UInt8]) throws {
        if let firstError { throw firstError }
        guard !closed else { throw SinkError(operation: "write", path: "webm", reason: "writer closed") }
        do {
            try append(track: track, timestampMs: timestampMs, keyframe: keyframe, frame: frame)
        } catch {
            firstError = error
            throw error
        }
    }

    private func append(track: UInt8, timestampMs: Int64, keyframe: Bool, frame: [UInt8]) throws {
        let isVideo = tracks.first { $0.number == track }?.isVideo ?? false
        let hasVideo = tracks.contains { $0.isVideo }
        if let start = clusterTimestamp {
            let relative = timestampMs - start
            let videoKeyframeStartsCluster = isVideo && keyframe && relative > 0
            if relative >= maxClusterDurationMs || relative > Int64(Int16.max) || relative < Int64(Int16.min)
                || videoKeyframeStartsCluster
            {
                try flushCluster()
            }
        }
        if clusterTimestamp == nil {
            clusterTimestamp = timestampMs
            clusterHasCue = false
        }
        // Cue the first video keyframe of each cluster, or each cluster of an audio-only file.
        // The open cluster is written at the sink's current end, so that is its position.
        if !clusterHasCue, (isVideo && keyframe) || !hasVideo {
            cues.append(.init(time: timestampMs, track: track, position: sink.position - segmentDataStart))
            clusterHasCue = true
        }
        let relative = Int16(truncatingIfNeeded: timestampMs - (clusterTimestamp ?? timestampMs))
        // SimpleBlock: track number, relative timestamp, flags, frame; built in place in the
        // cluster buffer (no per-frame copies: a keyframe is tens of KB).
        let bodySize = EBML.sizeLength(UInt64(track)) + 3 + frame.count
        EBML.appendID(MatroskaID.simpleBlock, to: &cluster)
        EBML.appendSize(UInt64(bodySize), to: &cluster)
        EBML.appendSize(UInt64(track), to: &cluster)
        cluster.appendBigEndian(relative)
        cluster.append(keyframe || !isVideo ? 0x80 : 0x00)
        cluster += frame
        firstTimestamp = min(firstTimestamp ?? timestampMs, timestampMs)
        lastTimestamp = max(lastTimestamp, timestampMs)
        framesWritten += 1
    }

    /// Writes the open cluster, if any, to the sink.
    private func flushCluster() throws {
        guard let timestamp = clusterTimestamp else { return }
        // One append per cluster (all or nothing on a full disk), assembled in a buffer kept
        // from cluster to cluster: a recording's steady state allocates nothing here.
        let timestampElement = EBML.unsigned(MatroskaID.timestamp, UInt64(max(0, timestamp)))
        clusterOut.removeAll(keepingCapacity: true)
        clusterOut += EBML.id(MatroskaID.cluster)
        clusterOut += EBML.size(UInt64(timestampElement.count + cluster.count))
        clusterOut += timestampElement
        clusterOut += cluster
        try sink.append(clusterOut)
        cluster.removeAll(keepingCapacity: true)
        clusterTimestamp = nil
        // Keep Info's duration current, so a killed process leaves a file whose header says
        // how long it is (players and ffprobe read it from there).
        try sink.overwrite(EBML.floatBody(Double(durationMs)), at: durationOffset)
        try sink.flush()
    }

    /// The media span written so far, in milliseconds.
    public var durationMs: Int64 {
        guard let firstTimestamp else { return 0 }
        return lastTimestamp - min(firstTimestamp, 0) + 20
    }

    /// Finishes the file: last cluster, cues, seek head, duration and segment size. Idempotent;
    /// a second call reports the first call's error, if any.
    public func close() throws {
        if closed {
            if let firstError { throw firstError }
            return
        }
        closed = true
        do {
            try flushCluster()
            let cuesPosition = sink.position
            if !cues.isEmpty {
                try sink.append(EBML.master(MatroskaID.cues, cues.points.map { point in
                    EBML.master(MatroskaID.cuePoint, [
                        EBML.unsigned(MatroskaID.cueTime, UInt64(max(0, point.time))),
                        EBML.master(MatroskaID.cueTrackPositions, [
                            EBML.unsigned(MatroskaID.cueTrack, UInt64(point.track)),
                            EBML.unsigned(MatroskaID.cueClusterPosition, UInt64(point.position)),
                        ]),
                    ])
                }))
            }
            var seeks = [seekEntry(MatroskaID.info, infoPosition), seekEntry(MatroskaID.tracks, tracksPosition)]
            if !cues.isEmpty { seeks.append(seekEntry(MatroskaID.cues, cuesPosition)) }
            let seekHead = EBML.master(MatroskaID.seekHead, seeks)
            if seekHead.count + 2 <= Self.seekHeadReserve {
                try sink.overwrite(seekHead + EBML.void(total: Self.seekHeadReserve - seekHead.count), at: seekHeadOffset)
            }
            try sink.overwrite(EBML.floatBody(Double(durationMs)), at: durationOffset)
            let segmentSize = UInt64(sink.position - segmentDataStart)
            try sink.overwrite(EBML.size(segmentSize, length: 8), at: segmentSizeOffset)
            try sink.close()
        } catch {
            firstError = error
            try? sink.close()
            throw error
        }
    }

    private func seekEntry(_ id: UInt32, _ position: Int64) -> [UInt8] {
        EBML.master(MatroskaID.seek, [
            EBML.element(MatroskaID.seekID, EBML.id(id)),
            EBML.unsigned(MatroskaID.seekPosition, UInt64(position - segmentDataStart)),
        ])
    }
}
