import Agent
import Foundation

/// Everything recorded for one participant during one stay in the room: their `<name>.webm`,
/// `<name>.wav` and `<name>.opus`, their decoded audio for the room mix, and their statistics.
/// A rejoin is a new ``ParticipantRecording`` with a new name.
///
/// **WAV placement** (ARCHITECTURE.md, Timing): the first audio frame lands at sample
/// 48 × (its mapped wall time in ms from the recording's t=0); every later one at the first's
/// position plus its RTP timestamp difference at 48 kHz. Durations are never summed and arrival
/// jitter never moves audio. Only a jump of more than 5 s (``RTPTimelineAnchor``) between the
/// RTP-derived and the wall-derived positions (the sender restarted its clock) re-anchors on the
/// wall time. A gap up to ``TimelineWAVWriter/maxConcealedGap`` is filled with Opus packet loss
/// concealment, computed before the next packet is decoded so it continues the last audio;
/// longer gaps are silence (the writer fills them).
///
/// **Reconnects.** When the recorder's connection drops, ``suspend()`` forgets the streams' RTP
/// anchors and the Opus decoder: what comes after the gap is new streams (new SSRCs and RTP
/// bases), placed again by wall time, so the WAV is filled with silence across the gap and the
/// WebM's times jump over it. A participant the drop took away is ``markLost(atMs:)``: their
/// files stay open, and if they come back under a new Janus id with the same display name
/// (``resume(id:)``) they go on in the same files. ``ids`` lists every id they had.
///
/// **Segments** (``RecordingSegments``, `--segment`): the WAV cuts itself sample-exactly; the
/// WebM starts its next part at the first video keyframe past a boundary (asking the sender for
/// one there through `wantKeyframe`; after ``keyframeWaitMs`` without one it cuts anyway and the
/// next part's video waits for its keyframe), or at the first packet for a file without video;
/// the `.opus` file at the first packet past the boundary.
///
/// **A continued recording** (``RecordingContinuation``): the files start at the part numbers
/// the directory leaves free (`<name>.part2.webm`, ...) and the WAV at the run's start on the
/// timeline (`originMs`) rather than at t=0.
///
/// A write error ends only the file that failed; it is recorded in that file's manifest entry
/// and reported through `reportError`. Not thread-safe: the recorder's writer queue owns it.
final class ParticipantRecording {

    let id: String
    /// Every Janus id they had, first to last (more than one after coming back from a reconnect).
    var ids: [String]
    let display: String
    let name: String
    let joinedMs: Int64
    var leftMs: Int64?
    var isPresent = true
    /// Taken away by a connection drop, files still open: they may come back (``resume(id:)``).
    var isLost = false

    private let directory: RecordingDirectory
    private let formats: RecordingFormats
    private let decodeAudio: Bool
    private let reportError: (String) -> Void
    private let segments: RecordingSegments?
    /// Asks the sender of the participant's video (by their current id) for a keyframe.
    private let wantKeyframe: (String) -> Void
    /// The segment the WebM part being written started in.
    private var webmSegment: Int64 = 0
    /// The boundary a keyframe was asked for (once per boundary).
    private var keyframeAskedFor: Int64?
    /// How long past a boundary the WebM waits for a keyframe before it cuts without one.
    static let keyframeWaitMs: Int64 = 3000
    /// The part numbers of this stay's first WebM/Matroska and `.opus` files: 1, or above a
    /// continued recording's earlier parts.
    private let firstWebMPart: Int
    private let firstOggPart: Int

    /// The WebM (or Matroska) file being written: `<name>.webm`, after a codec change
    /// `<name>.part2.mkv` and so on (``startNextPart(videoCodec:)``).
    private(set) var webm: ParticipantWebM?
    /// The parts before `webm`, closed, in order, with the RTP/NTP mappings of their streams.
    private var earlierParts: [(file: ParticipantWebM, mappings: [MediaKind: RecordingManifest.RTPNTPMapping])] = []
    private var wav: TimelineWAVWriter?
    private var wavError: String?
    private var ogg: OggOpusWriter?
    private var oggError: String?
    private var oggStartMs: Int64?
    private var oggStartPosition: Int64 = 0
    /// The `.opus` parts before `ogg` (``RecordingSegments``), closed: name, start, samples.
    private var earlierOggParts: [(fileName: String, startMs: Int64, durationSamples: Int64, channels: Int)] = []
    private var oggSegment: Int64 = 0
    var decoder: OpusDecoder?

    var audioAnchor = RTPTimelineAnchor(unitsPerSecond: 48_000)
    /// Where the `.opus` file's packets belong (samples), by RTP like the WAV's.
    var oggAnchor = RTPTimelineAnchor(unitsPerSecond: 48_000)
    /// Timeline position just past the last audio decoded (or concealed).
    private(set) var audioEnd: Int64?
    var reanchors: Int { audioAnchor.reanchors }
    private(set) var undecodableFrames = 0

    private var counted: [MediaKind: (frames: Int64, bytes: Int64, keyframes: Int64, firstMs: Int64)] = [:]
    var receiverStatistics: [MediaKind: ReceiveStreamStatistics] = [:]
    /// Figures of receive streams that ended (a reconnect starts new ones, counting from 0).
    var earlierStatistics: [MediaKind: ReceiveStreamStatistics] = [:]
    private var mappings: [MediaKind: RecordingManifest.RTPNTPMapping] = [:]

    init(id: String, display: String, name: String, joinedMs: Int64, directory: RecordingDirectory,
         formats: RecordingFormats, segments: RecordingSegments? = nil, wantKeyframe: @escaping (String) -> Void = { _ in },
         originMs: Int64 = 0, parts: RecordingPartNumbers = RecordingPartNumbers(), reportError: @escaping (String) -> Void) {
        self.id = id
        ids = [id]
        self.display = display
        self.name = name
        self.joinedMs = joinedMs
        self.directory = directory
        self.formats = formats
        self.reportError = reportError
        self.segments = segments
        self.wantKeyframe = wantKeyframe
        decodeAudio = formats.contains(.wav) || formats.contains(.mix) || formats.contains(.composite) || formats.contains(.transcript)
        let firstWebMPart = parts.first(for: "\(name).webm")
        self.firstWebMPart = firstWebMPart
        firstOggPart = parts.first(for: "\(name).opus")
        webm = formats.contains(.webm) ? ParticipantWebM(directory: directory, baseName: RecordingSegments.partPath(name, number: firstWebMPart)) : nil
        if formats.contains(.wav) {
            do {
                wav = try TimelineWAVWriter(path: directory.filePath("\(name).wav"), segmentSamples: segments?.lengthSamples,
                                            startSample: max(0, originMs) * 48, firstPart: parts.first(for: "\(name).wav"))
            } catch {
                failWAV(error)
            }
        }
    }

    func trackAdded(kind: MediaKind, codec: MediaCodec) {
        if kind == .video, let webm, webm.hasVideo, let current = webm.videoCodec, current != codec {
            startNextPart(videoCodec: codec)
        }
        webm?.announce(kind: kind, codec: codec)
    }

    /// The participant's video changed codec (a publisher republishing VP8 as H.264 or VP9), or
    /// video came to a file that went audio-only: a file holds one codec per track and its
    /// tracks are written first, so this part ends and the next begins, on the same timeline
    /// (its start_ms), named `<name>.part<N>` with the container's extension. Its video starts
    /// at the first keyframe; audio goes on into it.
    private func startNextPart(videoCodec: MediaCodec) {
        guard let current = webm else { return }
        close(current)
        earlierParts.append((current, mappings))
        let next = ParticipantWebM(directory: directory, baseName: nextWebMBaseName)
        // The same stream's H.264 parameter sets, when only the file changes: an IDR that comes
        // without them still opens the next part.
        if current.videoCodec == videoCodec { next.takeParameterSets(from: current) }
        if current.audioAnnounced { next.announce(kind: .audio, codec: .opus) }
        next.announce(kind: .video, codec: videoCodec)
        webm = next
        // A new stream: its video is placed and lined up with the audio afresh.
        mediaAnchors[.video] = nil
        mappings[.video] = nil
        alignment.reset()
    }

    /// With segments: starts the WebM's next part when `frame` is where the cut belongs (see
    /// the type's notes), or asks for the keyframe it waits for.
    private func cutSegmentIfDue(for frame: RemoteFrame, ms: Int64) {
        guard let segments, let current = webm, current.error == nil else { return }
        let segment = segments.index(ofMs: ms)
        // A part that is not written yet starts in the segment its first frames come in.
        guard current.exists else {
            webmSegment = segment
            return
        }
        guard segment > webmSegment else { return }
        let boundary = segments.startMs(ofIndex: webmSegment + 1)
        let waitsForKeyframe = current.hasVideo && ms < boundary + Self.keyframeWaitMs
        if waitsForKeyframe, !(frame.kind == .video && frame.isKeyframe) {
            if frame.kind == .video, keyframeAskedFor != boundary {
                keyframeAskedFor = boundary
                wantKeyframe(ids.last ?? id)
            }
            return
        }
        close(current)
        earlierParts.append((current, mappings))
        let next = ParticipantWebM(directory: directory, baseName: nextWebMBaseName)
        // The same streams go on: parameter sets, codecs and the A/V alignment carry over, so
        // the part opens at once instead of waiting to be lined up again.
        next.takeParameterSets(from: current)
        if current.audioAnnounced { next.announce(kind: .audio, codec: .opus) }
        if let codec = current.videoCodec { next.announce(kind: .video, codec: codec) }
        if let shift = current.videoShiftMs { next.align(shiftingVideoBy: shift) }
        webm = next
        webmSegment = segment
    }

    var mediaAnchors: [MediaKind: RTPTimelineAnchor] = [:]
    var alignment = AVAlignment()
    /// The last frame's time as their WebM places it (video moved onto the audio): the room
    /// composite shows their pictures at these times.
    private(set) var placedMs: Int64 = 0

    /// Records one frame at `ms` on the recording's timeline. Returns the decoded audio blocks
    /// (mono PCM with their timeline positions) for the room mix.
    func handle(_ frame: RemoteFrame, ms: Int64) -> [(pcm: [Int16], sample: Int64)] {
        guard isPresent else { return [] }
        count(frame, ms: ms)
        if frame.kind == .video, frame.isKeyframe, let webm {
            if webm.hasVideo, let current = webm.videoCodec, frame.codec != current {
                // A keyframe in another codec than the file's video (no track announcement came first).
                startNextPart(videoCodec: frame.codec)
            } else if webm.exists, !webm.hasVideo {
                // The file went audio-only (no keyframe within its hold limit: a sender that
                // ignores PLI and sends one every few seconds, or video that started later). A
                // track cannot be added to a written file: the video starts the next part.
                startNextPart(videoCodec: frame.codec)
            }
        }
        cutSegmentIfDue(for: frame, ms: ms)
        placedMs = mediaMs(of: frame, ms: ms)
        if let webm {
            let failedBefore = webm.error != nil
            webm.add(.init(kind: frame.kind, bytes: frame.bytes, isKeyframe: frame.isKeyframe, ms: placedMs,
                           codec: frame.kind == .video ? frame.codec : nil))
            if !failedBefore, let error = webm.error { reportError("\(webm.fileName): \(error)") }
        }
        guard frame.kind == .audio, frame.codec == .opus else { return [] }
        writeOgg(frame, ms: ms)
        guard decodeAudio else { return [] }
        return decode(frame, ms: ms)
    }

    private func count(_ frame: RemoteFrame, ms: Int64) {
        var entry = counted[frame.kind] ?? (0, 0, 0, ms)
        entry.frames += 1
        entry.bytes += Int64(frame.bytes.count)
        if frame.kind == .video, frame.isKeyframe { entry.keyframes += 1 }
        counted[frame.kind] = entry
        // Keep the first mapping, upgraded once to the first one a sender report made.
        if mappings[frame.kind] == nil || (mappings[frame.kind]?.source == .arrival && frame.mappedBySenderReport) {
            mappings[frame.kind] = .init(rtp: frame.rtpTimestamp, ntp: NTPTime.ntp(fromUnixNanoseconds: frame.wallTimeNanoseconds), wallMs: frame.wallTimeNanoseconds / 1_000_000,
                                         source: frame.mappedBySenderReport ? .senderReport : .arrival)
        }
    }

    /// A 20 ms Opus frame of silence (CELT, fullband, one frame, all bands zero).
    static let opusSilence: [UInt8] = [0xF8, 0xFF, 0xFE]

    /// Appends one packet to the `.opus` file, first filling a gap of 60 ms or more before it
    /// (DTX, loss, a reconnect) with 20 ms silence frames, so the file keeps the recording's
    /// timeline instead of closing gaps up. Packets are placed by RTP (see ``RTPTimelineAnchor``),
    /// so jitter and a moving wall-clock mapping add nothing.
    private func writeOgg(_ frame: RemoteFrame, ms: Int64) {
        guard formats.contains(.ogg), oggError == nil else { return }
        let position = oggAnchor.place(rtp: frame.rtpTimestamp, clockRate: frame.clockRate, wallPosition: ms * 48)
        do {
            if let segments, let current = ogg, segments.index(ofMs: ms) > oggSegment {
                try current.close()
                earlierOggParts.append((oggFileName, oggStartMs ?? 0, current.durationSamples, current.channels))
                ogg = nil
            }
            if ogg == nil {
                oggSegment = segments?.index(ofMs: ms) ?? 0
                ogg = try OggOpusWriter(path: directory.filePath(oggFileName))
                oggStartMs = ms
                oggStartPosition = position
            }
            guard let ogg else { return }
            let behind = position - oggStartPosition - ogg.durationSamples
            if behind >= 3 * 960 {
                for _ in 0..<(behind / 960) { try ogg.write(packet: Self.opusSilence) }
            }
            try ogg.write(packet: frame.bytes)
        } catch let error as OpusPacket.Error {
            _ = error  // a malformed packet is skipped, the file goes on
        } catch {
            oggError = "\(error)"
            try? ogg?.close()
            reportError("\(oggFileName): \(error)")
        }
    }

    /// The `.opus` part being written.
    private var oggFileName: String { RecordingSegments.partPath("\(name).opus", number: firstOggPart + earlierOggParts.count) }

    /// The WebM/Matroska part after those written (`earlierParts`), without its extension.
    private var nextWebMBaseName: String { RecordingSegments.partPath(name, number: firstWebMPart + earlierParts.count) }

    /// A frame's time for the WebM, per track (see ``RTPTimelineAnchor``): blocks keep their
    /// real spacing and a moved mapping cannot shift one track against the other.
    /// Video is then moved onto the audio by their sender reports, once (see ``AVAlignment``).
    private func mediaMs(of frame: RemoteFrame, ms: Int64) -> Int64 {
        var anchor = mediaAnchors[frame.kind] ?? RTPTimelineAnchor(unitsPerSecond: 1000)
        let reanchorsBefore = anchor.reanchors
        var placed = anchor.place(rtp: frame.rtpTimestamp, clockRate: frame.clockRate, wallPosition: ms)
        if anchor.reanchors != reanchorsBefore { alignment.reset() }
        mediaAnchors[frame.kind] = anchor
        if let shift = alignment.placed(kind: frame.kind, atMs: placed, senderReportMs: frame.mappedBySenderReport ? ms : nil) {
            mediaAnchors[.video]?.shift(by: shift)
            if frame.kind == .video { placed += shift }
            webm?.align(shiftingVideoBy: shift)
        }
        return placed
    }

    /// The timeline position of an audio frame in samples (see ``RTPTimelineAnchor``).
    private func position(of frame: RemoteFrame, ms: Int64) -> Int64 {
        audioAnchor.place(rtp: frame.rtpTimestamp, clockRate: frame.clockRate, wallPosition: ms * 48)
    }

    private func decode(_ frame: RemoteFrame, ms: Int64) -> [(pcm: [Int16], sample: Int64)] {
        if decoder == nil { decoder = try? OpusDecoder(channels: 1) }
        guard let decoder else { return [] }
        let sample = position(of: frame, ms: ms)
        guard TimelineWAVWriter.validPositions.contains(sample) else { return [] }
        var blocks: [(pcm: [Int16], sample: Int64)] = []
        if let end = audioEnd, sample > end, sample - end <= (wav?.maxConcealedGap ?? 5760) {
            let gap = Int(sample - end)
            let rounded = min((gap + 119) / 120 * 120, OpusDecoder.maxFrameSamplesPerChannel)
            if let concealed = try? decoder.conceal(samplesPerChannel: rounded) {
                let block = Array(concealed.prefix(gap))
                writeWAV(block, at: end)
                blocks.append((block, end))
                audioEnd = end + Int64(block.count)
            }
        }
        guard let pcm = try? decoder.decode(frame.bytes), !pcm.isEmpty else {
            undecodableFrames += 1
            return blocks
        }
        writeWAV(pcm, at: sample)
        blocks.append((pcm, sample))
        audioEnd = max(audioEnd ?? 0, sample + Int64(pcm.count))
        return blocks
    }

    private func writeWAV(_ pcm: [Int16], at sample: Int64) {
        guard let wav else { return }
        do {
            try wav.write(pcm, atSample: sample)
        } catch {
            failWAV(error)
        }
    }

    private func failWAV(_ error: Error) {
        guard wavError == nil else { return }
        wavError = "\(error)"
        try? wav?.close()
        reportError("\(name).wav: \(error)")
    }

    /// They left: their WebM and Ogg files end here. The WAV stays open, to be padded to the
    /// recording's end by ``finish(atSample:)``.
    func leave(atMs ms: Int64) {
        guard isPresent || isLost else { return }
        leftMs = isLost ? (leftMs ?? ms) : ms
        isPresent = false
        isLost = false
        closeStreams()
    }

    private func close(_ part: ParticipantWebM) {
        let failedBefore = part.error != nil
        part.close()
        if !failedBefore, let error = part.error { reportError("\(part.fileName): \(error)") }
    }

    private func closeStreams() {
        if let webm { close(webm) }
        if let ogg, oggError == nil {
            do { try ogg.close() } catch {
                oggError = "\(error)"
                reportError("\(oggFileName): \(error)")
            }
        }
    }

    /// The recording ends at `end` (samples): closes everything and pads the WAV to there.
    func finish(atSample end: Int64) {
        closeStreams()
        discardParts(startingAtOrAfterMs: end / 48)
        isPresent = false
        guard let wav, wavError == nil else { return }
        do { try wav.finish(atSample: end) } catch { failWAV(error) }
    }

    /// A part opened by media in flight when the stop came (at or past the recording's end: a
    /// `--segment` boundary the recording ends on) holds a packet or two beyond the recording:
    /// it is deleted, and the part before it is the last.
    private func discardParts(startingAtOrAfterMs endMs: Int64) {
        if ogg != nil, oggError == nil, !earlierOggParts.isEmpty, let start = oggStartMs, start >= endMs {
            unlink(directory.filePath(oggFileName))
            ogg = nil
        }
        if let current = webm, current.error == nil, !earlierParts.isEmpty, let start = current.startMs, start >= endMs {
            unlink(directory.filePath(current.fileName))
            webm = nil
        }
    }

    var wavPosition: Int64 { wav?.position ?? 0 }

    /// Every WebM/Matroska part, the one being written last.
    private var parts: [ParticipantWebM] { partsWithMappings.map(\.file) }

    /// The parts with the RTP/NTP mappings of their streams (the current part's are live).
    private var partsWithMappings: [(file: ParticipantWebM, mappings: [MediaKind: RecordingManifest.RTPNTPMapping])] {
        earlierParts + (webm.map { [($0, mappings)] } ?? [])
    }

    /// Paths of the files that exist, for byte counts.
    var filePaths: [String] {
        var names: [String] = []
        names += parts.filter(\.exists).map(\.fileName)
        if let wav { names += wav.parts.map { ($0.path as NSString).lastPathComponent } }
        names += earlierOggParts.map(\.fileName)
        if ogg != nil { names.append(oggFileName) }
        return names
    }

    /// - Parameter connectionGaps: the recording's reconnect gaps (ms), so the WAV's silence
    ///   across them is named `reconnect`.
    func manifestEntry(fileBytes: (String) -> Int64?, connectionGaps: [Range<Int64>] = []) -> RecordingManifest.Participant {
        var files: [RecordingManifest.File] = []
        for (part, partMappings) in partsWithMappings {
            if let file = part.manifestFile(mappings: partMappings, bytes: fileBytes(part.fileName)) { files.append(file) }
        }
        if let wav {
            for (index, part) in wav.parts.enumerated() {
                let end = index + 1 < wav.parts.count ? wav.parts[index + 1].startSample : wav.position
                var file = RecordingManifest.File(
                    path: (part.path as NSString).lastPathComponent, format: "wav", startMs: part.startSample / 48,
                    tracks: [.init(kind: .audio, codec: "pcm_s16le", channels: wav.channels, sampleRate: 48_000,
                                   rtpNtpMapping: mappings[.audio])],
                    bytes: fileBytes((part.path as NSString).lastPathComponent), durationMs: (end - part.startSample) / 48)
                if index == wav.parts.count - 1 { file.error = wavError }
                files.append(file)
            }
        }
        let oggTracks = { (channels: Int) -> [RecordingManifest.Track] in
            [.init(kind: .audio, codec: MediaCodec.opus.name, channels: channels, sampleRate: 48_000, rtpNtpMapping: self.mappings[.audio])]
        }
        for part in earlierOggParts {
            files.append(RecordingManifest.File(path: part.fileName, format: "ogg", startMs: part.startMs, tracks: oggTracks(part.channels),
                                                bytes: fileBytes(part.fileName), durationMs: part.durationSamples / 48))
        }
        if let ogg {
            var file = RecordingManifest.File(
                path: oggFileName, format: "ogg", startMs: oggStartMs ?? 0, tracks: oggTracks(ogg.channels),
                bytes: fileBytes(oggFileName), durationMs: ogg.durationSamples / 48)
            file.error = oggError
            files.append(file)
        }
        var entry = RecordingManifest.Participant(
            id: id, display: display, name: name, joinedMs: joinedMs, leftMs: leftMs, files: files,
            stats: stats, resolutionChanges: parts.flatMap(\.resolutionChanges))
        entry.ids = ids
        entry.gaps = (wav?.gaps ?? []).map { gap in
            let startMs = gap.lowerBound / 48, endMs = gap.upperBound / 48
            let reason: String
            if gap.lowerBound == (wav?.startSample ?? 0) {
                reason = "not_joined"
            } else if connectionGaps.contains(where: { $0.overlaps(startMs..<max(endMs, startMs + 1)) }) {
                reason = "reconnect"
            } else if leftMs.map({ gap.lowerBound >= $0 * 48 }) == true {
                reason = "left"
            } else {
                reason = "silence"
            }
            return .init(kind: .audio, startMs: startMs, endMs: endMs, reason: reason)
        }
        return entry
    }

    /// The receiver's counters where it reported them, with what the recorder saw itself.
    var stats: RecordingManifest.Stats {
        var stats = RecordingManifest.Stats()
        for kind in [MediaKind.audio, .video] {
            var entry = RecordingManifest.KindStats()
            if let current = receiverStatistics[kind] {
                let receiver = Self.sum(earlierStatistics[kind], current)
                entry.packets = Int64(receiver.packets)
                entry.lost = Int64(receiver.lost)
                entry.recovered = Int64(receiver.recovered)
                entry.nacks = Int64(receiver.nacks)
                entry.plis = Int64(receiver.plis)
                // Every Opus frame stands alone; "keyframes" means something for video only.
                entry.keyframes = kind == .video ? Int64(receiver.keyframes) : 0
            }
            if let seen = counted[kind] {
                entry.keyframes = max(entry.keyframes, seen.keyframes)
                entry.firstFrameMs = seen.firstMs
                entry.bytes = seen.bytes
            }
            stats[kind] = entry
        }
        return stats
    }
}
