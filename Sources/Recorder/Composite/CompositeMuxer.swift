/// Interleaves the composite's two tracks into one ``WebMWriter`` in time order.
///
/// Video frames come out as the compositor renders them; audio packets as the room mix is
/// emitted, which may be up to the mixer's latency budget (2 s) behind. Each track says how far
/// it is complete (``videoComplete(throughMs:)``, ``audioComplete(throughMs:)``: nothing earlier
/// will come), and a frame is written once the other track cannot bring anything before it.
/// Should one track stall for more than ``maximumSkewMs`` (a failed mix), the other is written
/// anyway, so memory stays bounded; late packets are still written at their own times
/// (Matroska needs order within a track, not across tracks).
///
/// **The end.** Nothing is written until it is ``holdBackMs`` older than the newest packet
/// seen: media still arriving when the recording stops (rendered and encoded past the stop on a
/// loaded machine) is then still queued, and ``finish(atMs:discard:)`` drops what lies past the
/// end, so room.webm ends where the recording does (one CI run had written 120 ms past it).
///
/// **Segments** (`--segment`): the first video keyframe at or after a segment boundary closes
/// the part being written and opens the next (`room.part2.webm`, ...); the compositor forces a
/// keyframe there, so the cut is on the boundary's frame. Audio packets go to the part open when
/// they are written: by the interleaving above, those before the cut are already in the earlier
/// part. Each part's timestamps count from its own start, so it plays on its own.
///
/// **A later start** (a continued recording, ``RecordingContinuation``): the first part starts
/// at `startMs` on the timeline and is part `firstPart` (`room.part3.webm`); later parts number on.
final class CompositeMuxer {
    struct Packet {
        var ms: Int64
        var bytes: [UInt8]
        var isKeyframe: Bool
    }

    /// A finished part: its number (1: room.webm) and span on the recording's timeline.
    struct Part: Sendable, Equatable {
        var number: Int
        var startMs: Int64
        var durationMs: Int64
    }

    let videoTrack: UInt8
    let audioTrack: UInt8
    let maximumSkewMs: Int64
    let holdBackMs: Int64
    private var writer: WebMWriter
    private let segments: RecordingSegments?
    /// Makes the writer of part N (2, 3, ...) with the same tracks.
    private let openPart: ((Int) throws -> WebMWriter)?
    /// The first part's number: 1 (room.webm), or above a continued recording's earlier parts.
    let firstPart: Int
    /// Parts closed so far, in order.
    private(set) var finishedParts: [Part] = []
    private(set) var partStartMs: Int64 = 0
    private var partSegment: Int64 = 0
    private var discardedOpenPart = false
    private var video: [Packet] = []
    private var audio: [Packet] = []
    private var videoDoneMs: Int64 = .min
    private var audioDoneMs: Int64 = .min
    /// The newest packet's time, of either track; nothing within ``holdBackMs`` of it is written.
    private var newestMs: Int64 = .min
    private var finishing = false
    private(set) var videoFramesWritten: Int64 = 0
    private(set) var audioPacketsWritten: Int64 = 0

    init(writer: WebMWriter, videoTrack: UInt8, audioTrack: UInt8, maximumSkewMs: Int64 = 5000, holdBackMs: Int64 = 1000,
         segments: RecordingSegments? = nil, openPart: ((Int) throws -> WebMWriter)? = nil, startMs: Int64 = 0, firstPart: Int = 1) {
        self.holdBackMs = max(0, holdBackMs)
        self.firstPart = max(1, firstPart)
        partStartMs = startMs
        partSegment = (openPart == nil ? nil : segments)?.index(ofMs: startMs) ?? 0
        self.writer = writer
        self.segments = openPart == nil ? nil : segments
        self.openPart = openPart
        self.videoTrack = videoTrack
        self.audioTrack = audioTrack
        self.maximumSkewMs = maximumSkewMs
    }

    /// The part being written (1: room.webm).
    var partNumber: Int { firstPart + finishedParts.count }
    /// The open part's duration.
    var durationMs: Int64 { writer.durationMs }

    func addVideo(_ packet: Packet) throws {
        video.append(packet)
        newestMs = max(newestMs, packet.ms)
        videoDoneMs = max(videoDoneMs, packet.ms)
        try drain()
    }

    func addAudio(_ packet: Packet) throws {
        audio.append(packet)
        newestMs = max(newestMs, packet.ms)
        audioDoneMs = max(audioDoneMs, packet.ms)
        try drain()
    }

    /// No video before `ms` will come any more.
    func videoComplete(throughMs ms: Int64) throws {
        videoDoneMs = max(videoDoneMs, ms)
        try drain()
    }

    /// No audio before `ms` will come any more.
    func audioComplete(throughMs ms: Int64) throws {
        audioDoneMs = max(audioDoneMs, ms)
        try drain()
    }

    /// Writes what is left before `endMs` (the recording's end; media in flight past it belongs
    /// to no file), in time order, and closes the file. A part that starts at or after `endMs`
    /// (opened by a keyframe the boundary the recording ends on asked for) is handed to
    /// `discard` to delete, and the part before it is the last.
    func finish(atMs endMs: Int64 = .max, discard: (Int) -> Void = { _ in }) throws {
        video.removeAll { $0.ms >= endMs }
        audio.removeAll { $0.ms >= endMs }
        finishing = true
        videoDoneMs = .max
        audioDoneMs = .max
        try drain()
        try writer.close()
        if !finishedParts.isEmpty, partStartMs >= endMs {
            discard(partNumber)
            discardedOpenPart = true
        }
    }

    /// Every part, the open one (or, once finished, the last) included.
    var parts: [Part] {
        discardedOpenPart ? finishedParts : finishedParts + [Part(number: partNumber, startMs: partStartMs, durationMs: writer.durationMs)]
    }

    /// Closes the file as far as it got (after an error elsewhere).
    func abandon() {
        try? writer.close()
    }

    private func drain() throws {
        let writable = finishing || newestMs == .min ? Int64.max : newestMs - holdBackMs
        while true {
            let nextVideo = video.first.flatMap { $0.ms <= writable ? $0 : nil }
            let nextAudio = audio.first.flatMap { $0.ms <= writable ? $0 : nil }
            if let nextVideo, nextVideo.ms <= (audio.first?.ms ?? audioDoneMs) || isStalled(behind: audioDoneMs, newest: video.last?.ms) {
                if nextVideo.isKeyframe { try cutIfDue(atMs: nextVideo.ms) }
                try writer.write(track: videoTrack, timestampMs: nextVideo.ms - partStartMs, keyframe: nextVideo.isKeyframe, frame: nextVideo.bytes)
                video.removeFirst()
                videoFramesWritten += 1
            } else if let nextAudio, nextAudio.ms < (video.first?.ms ?? videoDoneMs) || isStalled(behind: videoDoneMs, newest: audio.last?.ms) {
                try writer.write(track: audioTrack, timestampMs: max(0, nextAudio.ms - partStartMs), keyframe: true, frame: nextAudio.bytes)
                audio.removeFirst()
                audioPacketsWritten += 1
            } else {
                return
            }
        }
    }

    /// Starts the next part at a keyframe at `ms` when `ms` is in a later segment than the
    /// open part's.
    private func cutIfDue(atMs ms: Int64) throws {
        guard let segments, let openPart, ms > partStartMs else { return }
        let segment = segments.index(ofMs: ms)
        guard segment > partSegment else { return }
        finishedParts.append(Part(number: partNumber, startMs: partStartMs, durationMs: ms - partStartMs))
        try writer.close()
        writer = try openPart(partNumber)
        partStartMs = ms
        partSegment = segment
    }

    /// The other track is more than ``maximumSkewMs`` behind this one's newest packet.
    private func isStalled(behind done: Int64, newest: Int64?) -> Bool {
        guard let newest, done != .max else { return false }
        return done == .min ? newest > maximumSkewMs : newest - done > maximumSkewMs
    }
}
