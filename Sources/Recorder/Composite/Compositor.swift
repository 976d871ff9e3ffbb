import Agent

/// Composites a room into one picture stream and muxes it with the room mix: the work behind
/// `room.webm` (``RoomCompositor`` runs it on its own queue).
///
///     video frames ─▶ decode (libvpx, openh264) ─▶ PictureQueue per participant ─┐
///     audio blocks ─▶ levels ─▶ ActiveSpeakerTracker ───────────────▶ TileLayout ─┤
///                                            canvas: scale (libyuv), names (BitmapFont) ─▶ VP8 ─┐
///     room mix blocks ─▶ 20 ms Opus packets at their timeline sample ──────────────────────────┴▶ CompositeMuxer ─▶ WebMWriter
///
/// **Clock.** Everything runs on media time, never the wall clock: output frame k is at t_k
/// (``FrameGrid``, from the recording's t=0) and is rendered once every participant whose video
/// is coming has delivered a frame at or after t_k (so the picture nearest t_k is known, see
/// ``PictureQueue``), or once media elsewhere is ``maximumWaitMs`` beyond t_k (their video
/// stalled or stopped). Frames with nobody in the room are rendered as media time passes them,
/// and ``finish(atMs:)`` renders the rest up to the recording's end.
///
/// **A/V.** Audio packets sit at their own timeline samples; each tile shows its participant's
/// picture nearest t_k, at most half the source's frame spacing away (16.7 ms at 30 fps), so
/// the picture and the sound of one instant are in the file within that of each other. The
/// video times are the ones the participant's own WebM gets (moved onto their audio by the
/// sender reports), and the mix places their audio as their WAV does.
///
/// **Tiles.** A participant with a picture no older than ``staleAfterMs`` shows it, fitted to the
/// tile with its aspect kept, and their name in a corner; one without (audio only, video not yet
/// decoded, or stopped) shows their name on a plain tile.
///
/// **Segments.** With `--segment`, the first frame at or after each boundary is encoded as a
/// keyframe and starts the next part (``CompositeMuxer``): room.webm's parts are cut exactly on
/// the frame grid, each playable on its own.
///
/// Not thread-safe: one queue owns it.
final class Compositor {
    let settings: CompositeSettings
    let grid: FrameGrid
    /// How long one participant's missing video may hold the others back (ms of media time).
    let maximumWaitMs: Int64
    let staleAfterMs: Int64

    private let muxer: CompositeMuxer
    private let encoder: VPXEncoder
    private let opus: OpusEncoder
    private var canvas: I420Frame
    /// Everybody who is or was on screen and may still be, in join order.
    private var roster: [CompositeParticipant] = []
    /// The current stay of each name.
    private var current: [String: CompositeParticipant] = [:]
    private var speakers = ActiveSpeakerTracker()
    private(set) var nextFrame: Int64 = 0
    /// The furthest media time seen, from any frame or audio block.
    private(set) var furthestMs: Int64 = 0
    /// Mix samples not yet encoded, from timeline sample `audioStart`.
    private var audioPending: [Int16] = []
    private var audioStart: Int64 = 0
    private(set) var framesEncoded: Int64 = 0
    private var finished = false
    private let segments: RecordingSegments?
    /// Deletes part N (one opened past the recording's end).
    private let discardPart: (Int) -> Void
    /// The segment of the last frame encoded.
    private var encodedSegment: Int64 = 0

    static let samplesPerPacket = 960
    static let background = (luma: UInt8(16), u: UInt8(128), v: UInt8(128))
    static let nameTile = (luma: UInt8(52), u: UInt8(138), v: UInt8(122))
    static let letterbox = (luma: UInt8(24), u: UInt8(128), v: UInt8(128))

    /// - Parameters:
    ///   - segments: cut the file into parts (`--segment`); `openPartSink` makes the sink of part
    ///     N (2, 3, ...). Without a sink maker the file is not cut.
    ///   - startMs: where the composite starts on the timeline (a continued recording's start,
    ///     ``RecordingContinuation``); its first frame is the grid's first at or after it.
    ///   - firstPart: the first file's part number (`sink`'s).
    init(sink: ByteSink, settings: CompositeSettings, maximumWaitMs: Int64 = 1000, staleAfterMs: Int64 = 2000,
         segments: RecordingSegments? = nil, openPartSink: ((Int) throws -> ByteSink)? = nil, discardPart: @escaping (Int) -> Void = { _ in },
         startMs: Int64 = 0, firstPart: Int = 1) throws {
        self.discardPart = discardPart
        self.settings = settings
        self.segments = openPartSink == nil ? nil : segments
        grid = FrameGrid(framesPerSecond: settings.framesPerSecond)
        let start = max(0, startMs)
        nextFrame = grid.firstFrame(atOrAfter: start)
        furthestMs = start
        audioStart = start * 48
        self.maximumWaitMs = maximumWaitMs
        self.staleAfterMs = staleAfterMs
        canvas = try I420Frame(width: settings.width, height: settings.height)
        encoder = try VPXEncoder(configuration: .init(
            codec: .vp8, bitrate: settings.bitrate, framesPerSecond: settings.framesPerSecond,
            keyframeInterval: settings.framesPerSecond * 4, speed: 8, errorResilient: false, timebase: 1000))
        opus = try OpusEncoder(configuration: .init(channels: 1, application: .audio, bitrate: 48_000))
        let tracks: [WebMTrack] = [
            .video(number: 1, codec: .vp8, width: settings.width, height: settings.height), .opus(number: 2, channels: 1),
        ]
        let writer = try WebMWriter(sink: sink, tracks: tracks)
        muxer = CompositeMuxer(writer: writer, videoTrack: 1, audioTrack: 2, segments: segments,
                               openPart: openPartSink.map { open in { number in try WebMWriter(sink: open(number), tracks: tracks) } },
                               startMs: start, firstPart: firstPart)
    }

    /// Every part so far, the open one last.
    var parts: [CompositeMuxer.Part] { muxer.parts }
    var framesUndecodable: Int64 { roster.reduce(0) { $0 + $1.framesUndecodable } + retiredUndecodable }
    private var retiredUndecodable: Int64 = 0

    // MARK: Events

    func join(_ name: String, display: String, atMs ms: Int64) throws {
        if let stay = current[name], stay.leftMs == nil { return }
        let stay = CompositeParticipant(name: name, display: display, joinedMs: max(0, ms), grid: grid)
        roster.append(stay)
        current[name] = stay
        try renderReady()
    }

    func leave(_ name: String, atMs ms: Int64) throws {
        guard let stay = current[name], stay.leftMs == nil else { return }
        stay.leftMs = max(stay.joinedMs, ms)
        speakers.remove(name)
        try renderReady()
    }

    /// A video frame of `name`'s, shown at `ms` on the recording's timeline.
    func video(_ bytes: [UInt8], codec: MediaCodec, isKeyframe: Bool, atMs ms: Int64, from name: String) throws {
        guard let stay = current[name], stay.leftMs == nil else { return }
        furthestMs = max(furthestMs, ms)
        stay.decode(bytes, codec: codec, isKeyframe: isKeyframe, atMs: ms)
        try renderReady()
    }

    /// A block of `name`'s decoded audio at timeline sample `sample` (48 kHz): their level.
    func audio(level: Double, samples: Int, atSample sample: Int64, from name: String) throws {
        guard let stay = current[name], stay.leftMs == nil else { return }
        let ms = sample / 48
        furthestMs = max(furthestMs, ms)
        speakers.add(level: level, atMs: ms, durationMs: Int64(samples / 48), from: name)
        try renderReady()
    }

    /// A block of the room mix (mono) at timeline sample `sample`, encoded in 20 ms packets.
    func mix(_ pcm: [Int16], atSample sample: Int64) throws {
        guard !finished, sample >= 0 else { return }
        let expected = audioStart + Int64(audioPending.count)
        var block = pcm[...]
        if sample > expected {
            // A gap (never from RoomMixer, which emits every block): silence, a packet at a time.
            var missing = sample - expected
            while missing > 0 {
                let step = min(missing, Int64(Self.samplesPerPacket))
                audioPending.append(contentsOf: repeatElement(0, count: Int(step)))
                missing -= step
                try encodeAudio(final: false)
            }
        } else if sample < expected {
            block = block.dropFirst(Int(min(Int64(block.count), expected - sample)))
        }
        audioPending.append(contentsOf: block)
        furthestMs = max(furthestMs, (audioStart + Int64(audioPending.count)) / 48)
        try encodeAudio(final: false)
        try renderReady()
    }

    /// Renders every frame before `endMs`, encodes the last audio and closes the file.
    func finish(atMs endMs: Int64) throws {
        guard !finished else { return }
        finished = true
        furthestMs = max(furthestMs, endMs)
        while grid.time(ofFrame: nextFrame) < endMs { try render() }
        try encodeAudio(final: true)
        try muxer.finish(atMs: endMs, discard: discardPart)
    }

    /// Closes the file as far as it got, after an error.
    func abandon() {
        finished = true
        muxer.abandon()
    }

    // MARK: Audio

    private func encodeAudio(final: Bool) throws {
        while audioPending.count >= Self.samplesPerPacket || (final && !audioPending.isEmpty) {
            var packet = Array(audioPending.prefix(Self.samplesPerPacket))
            if packet.count < Self.samplesPerPacket { packet += repeatElement(0, count: Self.samplesPerPacket - packet.count) }
            let bytes = try opus.encode(packet)
            try muxer.addAudio(.init(ms: audioStart / 48, bytes: bytes, isKeyframe: true))
            audioPending.removeFirst(min(Self.samplesPerPacket, audioPending.count))
            audioStart += Int64(Self.samplesPerPacket)
        }
        try muxer.audioComplete(throughMs: audioStart / 48)
    }

    // MARK: Video

    /// Renders the frames whose pictures are known (see the type's Clock).
    private func renderReady() throws {
        guard !finished else { return }
        while isReady(frame: nextFrame) { try render() }
    }

    private func isReady(frame: Int64) -> Bool {
        let time = grid.time(ofFrame: frame)
        if furthestMs >= time + maximumWaitMs { return true }
        guard time <= furthestMs else { return false }
        return roster.allSatisfy { stay in
            guard stay.isPresent(atMs: time), let last = stay.lastVideoMs else { return true }
            return last >= time
        }
    }

    private func render() throws {
        let index = nextFrame
        let time = grid.time(ofFrame: index)
        let visible = roster.filter { $0.isPresent(atMs: time) }
        let speaker = settings.layout == .speaker ? speakers.update(atMs: time) : nil
        let layout = TileLayout(layout: settings.layout, canvasWidth: canvas.width, canvasHeight: canvas.height,
                                participants: visible.map(\.name), speaker: speaker)
        try canvas.fill(.init(x: 0, y: 0, width: canvas.width, height: canvas.height),
                        luma: Self.background.luma, u: Self.background.u, v: Self.background.v)
        for tile in layout.tiles {
            guard let stay = visible.first(where: { $0.name == tile.name }) else { continue }
            if let picture = stay.pictures.picture(forFrame: index, maximumAgeMs: staleAfterMs) {
                try drawPicture(picture.frame, of: stay, in: tile.region)
            } else {
                try drawName(of: stay, in: tile.region)
            }
        }
        // Pictures of those not on screen are let go as time passes them, too.
        for stay in roster where !visible.contains(where: { $0 === stay }) {
            _ = stay.pictures.picture(forFrame: index, maximumAgeMs: 0)
        }
        if let segments, segments.index(ofMs: time) > encodedSegment {
            encodedSegment = segments.index(ofMs: time)
            encoder.forceKeyframe()
        }
        for frame in try encoder.encode(canvas, pts: time) {
            try muxer.addVideo(.init(ms: time, bytes: frame.data, isKeyframe: frame.isKeyframe))
            framesEncoded += 1
        }
        nextFrame += 1
        try muxer.videoComplete(throughMs: grid.time(ofFrame: nextFrame))
        retire(before: time)
    }

    /// Forgets stays that ended before `ms`.
    private func retire(before ms: Int64) {
        roster.removeAll { stay in
            guard let left = stay.leftMs, left <= ms else { return false }
            retiredUndecodable += stay.framesUndecodable
            if current[stay.name] === stay { current[stay.name] = nil }
            return true
        }
    }

    private func drawPicture(_ picture: I420Frame, of stay: CompositeParticipant, in cell: I420Frame.Region) throws {
        let fitted = TileLayout.fit(width: picture.width, height: picture.height, in: cell)
        if fitted != cell { try canvas.fill(cell, luma: Self.letterbox.luma, u: Self.letterbox.u, v: Self.letterbox.v) }
        try canvas.draw(picture, scaledInto: fitted)
        // The name in the picture's bottom-left corner, on a dark band, once it is big enough.
        let scale = max(1, fitted.height / 120)
        let bandHeight = (BitmapFont.glyphHeight + 2) * scale
        guard fitted.height >= 4 * bandHeight else { return }
        let maximumCharacters = max(0, (fitted.width / 2) / (BitmapFont.advance * scale))
        let label = BitmapFont.fitting(stay.display, maximumCharacters: maximumCharacters)
        guard !label.isEmpty else { return }
        let bandWidth = TileLayout.evenDown(BitmapFont.width(of: label, scale: scale) + 2 * scale + 2)
        let band = I420Frame.Region(x: fitted.x, y: TileLayout.evenDown(fitted.y + fitted.height - bandHeight - 2),
                                    width: min(fitted.width, bandWidth), height: TileLayout.evenDown(bandHeight + 2))
        try canvas.fill(band, luma: 16, u: 128, v: 128)
        BitmapFont.draw(label, into: &canvas, x: band.x + scale + 1, y: band.y + scale + 1, scale: scale, luma: 235)
    }

    private func drawName(of stay: CompositeParticipant, in cell: I420Frame.Region) throws {
        try canvas.fill(cell, luma: Self.nameTile.luma, u: Self.nameTile.u, v: Self.nameTile.v)
        let maximumCharacters = max(1, (cell.width - 4) / BitmapFont.advance)
        let label = BitmapFont.fitting(stay.display, maximumCharacters: maximumCharacters)
        let naturalWidth = max(1, BitmapFont.width(of: label, scale: 1))
        // As large as fits three quarters of the width and a fifth of the height.
        let scale = max(1, min(cell.width * 3 / 4 / naturalWidth, cell.height / (5 * BitmapFont.glyphHeight)))
        let textWidth = BitmapFont.width(of: label, scale: scale)
        BitmapFont.draw(label, into: &canvas, x: cell.x + (cell.width - textWidth) / 2,
                        y: cell.y + (cell.height - BitmapFont.glyphHeight * scale) / 2, scale: scale, luma: 235)
    }
}
